// The athletes' names and colours (docs/assets/app/match-setup.js): a colour is one of
// the page's own, never a property every object has; each athlete has a label.

import assert from "node:assert/strict";
import { test } from "node:test";

import { Setup } from "../../docs/assets/app/match-setup.js";

const OPTIONS = {
  colours: { blue: {}, white: {}, yellow: {} },
  defaults: { A: "blue", B: "white" },
  colourNames: { blue: "Blue", white: "White", yellow: "Yellow" },
};

test("a colour named like an inherited property is no colour: the default stays", () => {
  for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"]) {
    const setup = new Setup(OPTIONS).read(new URLSearchParams({ colour_a: name, colour_b: "yellow" }), null);
    assert.equal(setup.colour.A, "blue", name);
    assert.equal(setup.colour.B, "yellow");
    const params = new URLSearchParams();
    setup.addParams(params);
    assert.equal(params.get("colour_a"), null, "the link does not keep it");
  }
});

test("labels: the name, else the colour, never the same for both", () => {
  const setup = new Setup(OPTIONS).read(new URLSearchParams({ name_a: "  Ana  " }), null);
  assert.deepEqual(setup.labels(), { A: "Ana", B: "White" });
  setup.setName("B", "Ana");
  assert.deepEqual(setup.labels(), { A: "Ana (A)", B: "Ana (B)" });
  setup.setName("A", "x".repeat(100));
  assert.equal(setup.name.A.length, 40);
});

test("what was kept fills in what the link leaves out", () => {
  const kept = { name: { A: "Ana", B: 7 }, colour: { A: "yellow", B: "constructor" } };
  const setup = new Setup(OPTIONS).read(new URLSearchParams(), kept);
  assert.deepEqual([setup.name, setup.colour], [{ A: "Ana", B: "" }, { A: "yellow", B: "white" }]);
});

test("a name keeps no control character, lone surrogate or line separator (the engine refuses them)", () => {
  const setup = new Setup(OPTIONS);
  setup.setName("A", "Ana\nFingerprint 000\u001b[2J");
  assert.equal(setup.name.A, "AnaFingerprint 000[2J");
  setup.setName("B", `${"x".repeat(39)}😀`); // cut at 40 code units: half an emoji
  assert.equal(setup.name.B, "x".repeat(39));
  setup.setName("B", "Bia\u2028\udc00");
  assert.equal(setup.name.B, "Bia");
});
