// Material for MkDocs' palette restore (theme partial javascripts/palette.html), moved out of
// the page so the Content-Security-Policy allows no inline script. Same logic as upstream.
var palette = __md_get("__palette");
if (palette && palette.color) {
  if ("(prefers-color-scheme)" === palette.color.media) {
    var media = matchMedia("(prefers-color-scheme: light)"),
      input = document.querySelector(
        media.matches
          ? "[data-md-color-media='(prefers-color-scheme: light)']"
          : "[data-md-color-media='(prefers-color-scheme: dark)']",
      );
    palette.color.media = input.getAttribute("data-md-color-media");
    palette.color.scheme = input.getAttribute("data-md-color-scheme");
    palette.color.primary = input.getAttribute("data-md-color-primary");
    palette.color.accent = input.getAttribute("data-md-color-accent");
  }
  for (var [key, value] of Object.entries(palette.color)) document.body.setAttribute("data-md-color-" + key, value);
}
