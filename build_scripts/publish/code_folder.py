"""Our scripts, named by their content: a page and its scripts always come from one build.

A deploy changes pages and scripts together, but a browser may hold the old build's copy
of a script under an unchanged name: the service worker's cache (it serves what it kept
until the reader takes the new build) or the HTTP cache. A page of the new build, never
visited before, then came from the network and ran the old build's ``main.js``: one page,
two builds. So every script of ours a page names is published under a name that changes
with its content, and a page can only ever get its own build's scripts:

- the scripts and modules of ``docs/assets/`` (``app/``, ``engine/``, ``theme/``,
  ``lvl.js``) and the third-party modules of ``build_scripts/pages/vendor.py``
  (``assets/vendor/``) are published in one folder named by a hash of them all,
  ``assets/code-<hash>/``, keeping their tree (``assets/app/main.js`` ->
  ``assets/code-<hash>/app/main.js``), so that their relative imports stay valid. One
  folder, not a hash per file: a module names its neighbours by relative paths, and a
  name that changed would change every module that imports it anyway;
- our search worker sits beside Material's (whose relative URLs it needs:
  build_scripts/pages/search_worker.py), under a name with its own hash,
  ``search-when-free.<hash>.js``.

Material's own files carry its hashes already (``bundle.<hash>.min.js``, its search
worker, its stylesheets); our stylesheets are one hashed file (pages/stylesheet.py); the
engine's files are named by their versions and hashes (bundle/engine.py).

Every reference comes from here (:class:`Code`, made once per build by :func:`publish`):
the hook sets mkdocs.yml's ``extra_javascript`` to the published paths, the templates
name a script by its source path through the ``lvl_code`` filter, pages/preloads.py
follows the import graph in the folder, the match sheet names its QR module by its path
in the folder (:func:`within`), and after the build the service worker's groups and the
engine worker's security policy find a file's source path again (:func:`source_of`,
:func:`published_in`). Modules that name a file outside the folder do so by a relative
path from within it (``new URL("../../../engine/", import.meta.url)``: the site root is
three folders up).

A page of an older build (from the offline cache, or open since before the deploy) asks
for its own build's scripts; where the server no longer has one, it loads afresh as the
new build's page, once: the engine's client when its worker script is gone,
docs/assets/app/main.js when an app's module is (after the theme's instant navigation
brought a page of the new build into it).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from build_scripts.publish.site_files import SiteError

if TYPE_CHECKING:
    from mkdocs.structure.files import File, Files

SCRIPT_SUFFIXES = (".js", ".mjs")
ASSETS = "assets/"
# Our scripts that stay beside the theme's (their own hash in their name): the search
# worker, beside Material's.
BESIDE_THEME = "assets/javascripts/"
HASH_LENGTH = 10
FOLDER = re.compile(rf"^assets/code-(?P<hash>[0-9a-f]{{{HASH_LENGTH}}})/")


@dataclass(frozen=True, kw_only=True, slots=True)
class Code:
    """Where one build publishes each of our scripts, and what each holds."""

    folder: str  # "assets/code-<hash>/"
    paths: Mapping[str, str]  # source path (as under docs/) -> published path
    texts: Mapping[str, str]  # published path -> its text

    def path(self, source: str) -> str:
        """The published path of the script at ``source`` (``assets/app/main.js``)."""
        if source not in self.paths:
            raise SiteError(
                f"{source} is no script of this build (build_scripts/publish/code_folder.py"
                " publishes our scripts under docs/assets/)"
            )
        return self.paths[source]

    def text(self, published: str) -> str:
        """The text of the script published at ``published``."""
        return self.texts[published]


def publish(files: Files, config: Any) -> Code:
    """Move our scripts to their content-addressed paths among MkDocs's files, and point
    mkdocs.yml's ``extra_javascript`` at them."""
    from mkdocs.structure.files import File  # the build's; the server needs no MkDocs

    docs_dir = config["docs_dir"]
    ours = [file for file in files if _is_our_script(file, docs_dir)]
    in_folder = {file.src_uri: file.content_bytes for file in ours if in_code_folder(file.src_uri)}
    folder = folder_name(in_folder)
    paths: dict[str, str] = {}
    texts: dict[str, str] = {}
    for file in ours:
        content = file.content_bytes
        if file.src_uri in in_folder:
            published = folder + within(file.src_uri)
        else:
            published = hashed_name(file.src_uri, content)
        files.remove(file)
        files.append(File.generated(config, published, content=content))
        paths[file.src_uri] = published
        texts[published] = content.decode("utf-8")
    code = Code(folder=folder, paths=paths, texts=texts)
    for index, script in enumerate(config["extra_javascript"]):
        if isinstance(script, str):
            config["extra_javascript"][index] = code.path(script)
        else:
            script.path = code.path(script.path)
    return code


def _is_our_script(file: File, docs_dir: str) -> bool:
    """A script of docs/assets/ or generated by the build (not one of the theme's)."""
    return (
        file.src_uri.startswith(ASSETS)
        and file.src_uri.endswith(SCRIPT_SUFFIXES)
        and file.src_dir in (None, docs_dir)
    )


def in_code_folder(source: str) -> bool:
    """Whether the script at ``source`` goes into the code folder (not beside the theme)."""
    return source.startswith(ASSETS) and not source.startswith(BESIDE_THEME)


def within(source: str) -> str:
    """A script's path inside the code folder: ``assets/app/main.js`` -> ``app/main.js``."""
    return source.removeprefix(ASSETS)


def folder_name(contents: Mapping[str, bytes]) -> str:
    """The code folder of these scripts (source path -> bytes): a hash of them all."""
    digest = hashlib.sha256()
    for source in sorted(contents):
        digest.update(f"{source}\0{hashlib.sha256(contents[source]).hexdigest()}\n".encode())
    return f"{ASSETS}code-{digest.hexdigest()[:HASH_LENGTH]}/"


def hashed_name(source: str, content: bytes) -> str:
    """``x/name.js`` -> ``x/name.<hash>.js``, for a script outside the code folder."""
    stem, dot, suffix = source.rpartition(".")
    return f"{stem}.{hashlib.sha256(content).hexdigest()[:HASH_LENGTH]}{dot}{suffix}"


def source_of(relative: str) -> str | None:
    """The source path of a file published in a code folder (a path from the site root,
    ``assets/code-<hash>/app/main.js`` -> ``assets/app/main.js``), or None."""
    found = FOLDER.match(relative)
    return ASSETS + relative[found.end() :] if found else None


def published_in(site_dir: Path, source: str) -> str:
    """The path from the site root of the script at ``source`` (one of the code folder's)
    in a built site."""
    if not in_code_folder(source):
        raise SiteError(f"{source} is not published in the code folder")
    folders = [
        path.name
        for path in (Path(site_dir) / ASSETS).glob("code-*")
        if FOLDER.match(f"{ASSETS}{path.name}/")
    ]
    if len(folders) != 1:
        raise SiteError(f"{site_dir} should have one assets/code-<hash>/ folder: {folders}")
    return f"{ASSETS}{folders[0]}/{within(source)}"
