// A division's own address (/lookup/<division>/, build_scripts/pages/division_pages.py):
// its page carries the answer's title, summary and picture for link previews, and the
// answer at a glance. This sends the reader on to My division with the whole answer:
// with the fields of the link that was shared (its query), or else with those of the
// page's own link (the youngest athlete who gets this answer).

const link = document.getElementById("lvl-open-answer");
if (link) {
  const target = new URL(link.href);
  if (location.search) target.search = location.search;
  location.replace(target.href);
}
