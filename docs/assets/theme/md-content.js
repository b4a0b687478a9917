// Material for MkDocs' content script (theme partial javascripts/content.html), moved out of
// the page so the Content-Security-Policy allows no inline script. Same logic as upstream.
var target = document.getElementById(location.hash.slice(1));
target && target.name && (target.checked = target.name.startsWith("__tabbed_"));
