// docs/assets/app/share.js under Node's test runner: the share sheet where the browser
// has one, the clipboard otherwise, with the button's own words (tests/website/
// test_share.py runs this). Each browser is a plain object with what it would have.

import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SHARE = path.join(HERE, "..", "..", "docs", "assets", "app", "share.js");
const { canShare, copyText, shareButton, shareOrCopy } = await import(pathToFileURL(SHARE).href);

// An example citation: share.js passes it on as it is, whatever edition it names.
const EDITION = "9";
const CITED = `LVL Rules, Edition ${EDITION}, §5.4`;
const CITATION = { url: `https://rules.example.org/cite/${EDITION}/5.4/`, title: CITED, text: CITED };
const WORDS = { shareLabel: "Share citation", copyLabel: "Copy citation", copied: "Copied", failed: "Copy failed" };

function browser({ share, canShareIt = true, clipboard = true } = {}) {
  const said = { shared: [], copied: [] };
  const nav = {};
  if (share) {
    nav.share = async (data) => {
      said.shared.push(data);
      if (share !== true) throw Object.assign(new Error(share), { name: share });
    };
    nav.canShare = () => canShareIt;
  }
  if (clipboard) {
    nav.clipboard = {
      writeText: async (text) => {
        if (clipboard === "refused") throw new Error("NotAllowedError");
        said.copied.push(text);
      },
    };
  }
  return { nav, said };
}

function button() {
  const listeners = [];
  return {
    dataset: { ...WORDS },
    textContent: "Copy citation",
    hidden: true,
    addEventListener: (type, listener) => listeners.push(listener),
    tap: () => Promise.all(listeners.map((listener) => listener())),
  };
}

test("the share sheet gets the address, title and text; nothing is copied", async () => {
  const { nav, said } = browser({ share: true });
  assert.equal(await shareOrCopy(CITATION, nav), "shared");
  assert.deepEqual(said.shared, [CITATION]);
  assert.deepEqual(said.copied, []);
});

test("a share sheet the reader closes is neither copied nor a failure", async () => {
  const { nav, said } = browser({ share: "AbortError" });
  assert.equal(await shareOrCopy(CITATION, nav), "cancelled");
  assert.deepEqual(said.copied, []);
});

test("a share sheet that fails otherwise falls back to the clipboard", async () => {
  const { nav, said } = browser({ share: "NotAllowedError" });
  assert.equal(await shareOrCopy(CITATION, nav), "copied");
  assert.deepEqual(said.copied, [`${CITED} — ${CITATION.url}`]);
});

test("without a share sheet (or one that cannot share this), the text and address are copied", async () => {
  for (const { nav, said } of [browser(), browser({ share: true, canShareIt: false })]) {
    assert.equal(canShare(CITATION, nav), false);
    assert.equal(await shareOrCopy(CITATION, nav), "copied");
    assert.deepEqual(said.copied, [copyText(CITATION)]);
  }
  assert.equal(copyText({ url: "https://rules.example.org/lookup/?age=9" }), "https://rules.example.org/lookup/?age=9");
});

test("a clipboard that refuses is a failure", async () => {
  const { nav } = browser({ clipboard: "refused" });
  assert.equal(await shareOrCopy(CITATION, nav), "failed");
});

test("the button says share where there is a sheet, copy where not, and what happened", async () => {
  const sheet = button();
  assert.equal(shareButton(sheet, CITATION, undefined, browser({ share: true }).nav), true);
  assert.equal(sheet.textContent, "Share citation");
  assert.equal(sheet.hidden, false);
  await sheet.tap();
  assert.equal(sheet.textContent, "Share citation"); // shared: nothing more to say

  const copying = button();
  const { nav, said } = browser();
  let asked = 0;
  shareButton(copying, () => ({ ...CITATION, url: `${CITATION.url}?n=${++asked}` }), undefined, nav);
  assert.equal(copying.textContent, "Copy citation");
  await copying.tap();
  assert.equal(copying.textContent, "Copied");
  assert.match(said.copied[0], /\?n=2$/); // what to share is asked again at the tap
});

test("a browser that can neither share nor copy says so, and a tap shows the address, selected", async () => {
  const bare = button();
  const made = [];
  let selected = null;
  bare.dataset.unavailable = "Copying needs a secure (https) address: show the link";
  bare.ownerDocument = {
    createElement: (tag) => ({ tag }),
    getSelection: () => ({ selectAllChildren: (node) => (selected = node) }),
  };
  bare.after = (node) => made.push(node);
  let n = 1;
  const what = () => ({ ...CITATION, url: `${CITATION.url}?n=${n}` });
  assert.equal(shareButton(bare, what, undefined, browser({ clipboard: false }).nav), true);
  assert.equal(bare.hidden, false);
  assert.equal(bare.textContent, "Copying needs a secure (https) address: show the link");
  await bare.tap();
  n = 2;
  await bare.tap();
  assert.equal(made.length, 1); // one link, renewed at each tap
  assert.deepEqual({ tag: "a", text: `${CITATION.url}?n=2`, selected: true }, {
    tag: made[0].tag,
    text: made[0].textContent,
    selected: selected === made[0],
  });
  assert.equal(made[0].href, made[0].textContent);
});

test("a browser that can neither share nor copy keeps a button without those words hidden", () => {
  const nothing = button();
  assert.equal(shareButton(nothing, CITATION, undefined, browser({ clipboard: false }).nav), false);
  assert.equal(nothing.hidden, true);
});

// My division: the share sheet gets the answer's title, summary and address; the clipboard
// the address alone, which opens the answer when pasted (issue 40, item 5).
const ANSWER = {
  url: "https://rules.example.org/lookup/2-nogi-15/?age=15&uniform=nogi",
  title: "My division: age 15, No-Gi",
  text: "You may use everything the chart does not restrict, such as the armbar.",
  copy: "https://rules.example.org/lookup/2-nogi-15/?age=15&uniform=nogi",
};

test("an answer: the share sheet gets its title, summary and address, never what is copied", async () => {
  const { nav, said } = browser({ share: true });
  assert.equal(await shareOrCopy(ANSWER, nav), "shared");
  assert.deepEqual(said.shared, [{ url: ANSWER.url, title: ANSWER.title, text: ANSWER.text }]);
});

test("an answer without a share sheet: the clipboard gets the address alone", async () => {
  const { nav, said } = browser();
  assert.equal(await shareOrCopy(ANSWER, nav), "copied");
  assert.deepEqual(said.copied, [ANSWER.url]);
});
