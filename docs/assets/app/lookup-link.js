// My division opened from a shared link (/lookup/?age=30&…): before the first paint, which
// waits for it (an async module in <head>, blocking="render"), says on <html> which of the
// fields that depend on the age its answer asks for (data-lvl-link-asks), and the edition it
// names (data-lvl-link-edition): the rules
// table's own reader (division-table.js) on the part of the table it needs, which the
// build writes into <head> (#lookup-link-table). The stylesheet shows those fields on the
// first paint (lookup.css), as lookup.js then leaves them (it removes the mark), so that
// nothing moves when it has filled the form in. Without an age in the address, nothing.

import { askedFields, editionOf } from "./division-table.js";

const link = new URLSearchParams(location.search);
const data = document.getElementById("lookup-link-table");
// The edition it names: its fields and words on the first paint (form-link.css).
if (link.has("edition")) document.documentElement.dataset.lvlLinkEdition = link.get("edition");
if (data && link.has("age")) {
  const table = JSON.parse(data.textContent);
  const fields = { age: link.get("age") };
  if (link.has("edition")) fields.edition = link.get("edition");
  document.documentElement.dataset.lvlLinkAsks = askedFields(table, editionOf(table, fields), fields).join(" ");
}
