// The mark of our reading beside a line the engine decided by one of our editorial notes
// (the line's or result's `readings`, each {id, title}): "Our reading:" and each note's
// title, linked to the note on /rules/notes/. One look for the calculator's log, its
// result and the match sheet; the words come from the page (lvl_rules/words/readings.py).

/** `root`: the site's root URL; `ourReading`: the page's words for the mark. */
export function readingMark(root, edition, readings, ourReading) {
  if (!readings?.length) return null;
  const mark = document.createElement("span");
  mark.className = "lvl-reading";
  const label = document.createElement("em");
  label.textContent = ourReading;
  mark.append(label);
  readings.forEach((reading, n) => {
    const link = document.createElement("a");
    link.href = new URL(`rules/notes/#e${edition}-${reading.id}`, root).href;
    link.textContent = reading.title;
    mark.append(n ? ", " : " ", link);
  });
  return mark;
}
