// The lookup page's own table reader (docs/assets/app/division-table.js) under Node:
// for each key in KEYS_FILE, the index of the placement or comparison it finds in the
// rules table of TABLE_FILE, and the fields it would ask for. The build compares them
// with the engine (build_scripts/pages/lookup_check.py).
//
//   node tests/lookup/table_answers.mjs TABLE_FILE KEYS_FILE   (JSON out on stdout)
//
// KEYS_FILE: {"placements": [[edition, fields], ...], "compares": [[edition, fields], ...],
//             "asks": [[edition, fields], ...], "answers": [fields, ...]}

import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const READER = path.join(HERE, "..", "..", "docs", "assets", "app", "division-table.js");
const { answerFrom, askedFields, compareIndex, placementIndex } = await import(
  pathToFileURL(READER).href
);

const [tableFile, keysFile] = process.argv.slice(2);
const table = JSON.parse(readFileSync(tableFile, "utf8"));
const keys = JSON.parse(readFileSync(keysFile, "utf8"));
process.stdout.write(
  JSON.stringify({
    placements: keys.placements.map(([edition, fields]) => placementIndex(table, edition, fields)),
    compares: keys.compares.map(([edition, fields]) => compareIndex(table, edition, fields) ?? null),
    asks: (keys.asks ?? []).map(([edition, fields]) => askedFields(table, edition, fields)),
    answers: (keys.answers ?? []).map((fields) => answerFrom(table, fields)),
  }),
);
