// The rules engine's files, fetched, checked and made ready for Pyodide, all at once as
// soon as the manifest is known: the WebAssembly compiled while it downloads, the memory
// snapshot inflated into its image, the standard library read, the wheel checked and
// unzipped. Imported by engine-worker.js, which hands them to Pyodide.
//
// (Tried and measured: doing this in a helper worker of its own was no faster on two
// cores, where the engine thread, the page and V8's compiler threads already share them.)

const PROGRESS_INTERVAL_MS = 100;

/**
 * Start every file at once; returns {wasm, stdlib, wheel, wheelFiles, snapshot}, each a
 * promise. job: {wasmURL, stdlibURL, wheelURL, wheelSha256, snapshotURL, snapshot}
 * (URLs as text; snapshot: the manifest's snapshot entry, or null).
 */
export function prepareFiles(job, { onProgress = () => {}, onMark = () => {} } = {}) {
  const wheel = fetchChecked(new URL(job.wheelURL), job.wheelSha256);
  const files = {
    wasm: compileWasm(new URL(job.wasmURL)),
    stdlib: fetchOK(new URL(job.stdlibURL)).then((response) => response.arrayBuffer()),
    wheel,
    wheelFiles: wheel.then(readWheel),
    snapshot: job.snapshot
      ? fetchSnapshot(new URL(job.snapshotURL), job.snapshot, onProgress, onMark)
      : Promise.reject(new Error("the manifest names no snapshot")),
  };
  for (const promise of Object.values(files)) promise.catch(() => {}); // the caller awaits
  return files;
}

export async function fetchOK(url, init) {
  const response = await fetch(url, init);
  if (!response.ok) {
    throw new Error(`${url.pathname}: HTTP ${response.status} ${response.statusText}`);
  }
  return response;
}

// Compiled while it downloads; hosts that serve .wasm with the wrong MIME type, which
// streaming refuses, get the slower way.
function compileWasm(url) {
  return WebAssembly.compileStreaming(fetch(url)).catch(async () => {
    const response = await fetchOK(url);
    return WebAssembly.compile(await response.arrayBuffer());
  });
}

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

function sri(sha256) {
  const bytes = sha256.match(/../g).map((pair) => parseInt(pair, 16));
  return `sha256-${btoa(String.fromCharCode(...bytes))}`;
}

async function checkSha256(bytes, expected, url) {
  const actual = hex(await crypto.subtle.digest("SHA-256", bytes));
  if (actual !== expected) {
    throw new Error(`${url.pathname}: sha256 ${actual} differs from ${expected} in manifest.json`);
  }
}

// Read a stream into one buffer of the expected size (grown if the stream is longer).
export async function readAll(stream, size, onChunk) {
  let buffer = new Uint8Array(size);
  let length = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (length + value.length > buffer.length) {
      const bigger = new Uint8Array(Math.max(buffer.length * 2, length + value.length));
      bigger.set(buffer.subarray(0, length));
      buffer = bigger;
    }
    buffer.set(value, length);
    length += value.length;
    onChunk?.(length);
  }
  return length === buffer.length ? buffer : buffer.subarray(0, length);
}

// Write the packed runs of a snapshot stream into a zero-filled memory image.
async function unpackSegments(stream, entry) {
  const memory = new Uint8Array(entry.raw_size);
  const segments = entry.segments;
  let index = 0;
  let filled = 0; // bytes of segments[index] written so far
  let total = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    let chunk = value;
    while (chunk.length) {
      if (index >= segments.length) throw new Error("the snapshot is longer than its segments");
      const [offset, length] = segments[index];
      const take = Math.min(length - filled, chunk.length);
      memory.set(chunk.subarray(0, take), offset + filled);
      chunk = chunk.subarray(take);
      filled += take;
      total += take;
      if (filled === length) {
        index += 1;
        filled = 0;
      }
    }
  }
  if (total !== entry.packed_size) {
    throw new Error(`the snapshot has ${total} bytes, the manifest says ${entry.packed_size}`);
  }
  return memory;
}

function streamOf(bytes) {
  return new Blob([bytes]).stream();
}

function gunzip(stream) {
  return stream.pipeThrough(new DecompressionStream("gzip"));
}

// A small file checked against its sha256 by the browser (Subresource Integrity), which
// works in secure and insecure contexts alike.
async function fetchChecked(url, sha256) {
  try {
    const response = await fetchOK(url, { integrity: sri(sha256) });
    return new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    if (!(error instanceof TypeError)) throw error; // an HTTP status, already explained
    throw new Error(
      `${url.pathname}: not downloaded, or its sha256 differs from manifest.json (${error.message})`,
    );
  }
}

// The snapshot's memory image. Already in a cache of our service worker (which stores
// only files that matched their sha256; the name carries the hash): inflated from there.
// Else downloaded with byte progress and inflated while it arrives, and used only once
// the download matched its sha256.
async function fetchSnapshot(url, entry, onProgress, onMark) {
  const cached = await globalThis.caches?.match(url.href).catch(() => null);
  if (cached?.ok) {
    const image = await unpackSegments(gunzip((await cached.blob()).stream()), entry);
    onMark("snapshot inflated from the offline cache");
    return image;
  }
  if (!globalThis.crypto?.subtle) {
    // No SubtleCrypto outside secure contexts: let the browser check, without progress.
    return unpackSegments(gunzip(streamOf(await fetchChecked(url, entry.sha256))), entry);
  }
  const response = await fetchOK(url);
  const decoded = !["", "identity"].includes(response.headers.get("Content-Encoding") ?? "");
  const total = decoded ? entry.packed_size : entry.size;
  let reported = 0;
  const onChunk = (loaded) => {
    const now = performance.now();
    if (now - reported >= PROGRESS_INTERVAL_MS || loaded === total) {
      reported = now;
      onProgress({ loaded, total });
    }
  };
  if (decoded) {
    // A host that decoded the .gz on the way: check the packed bytes instead.
    const packed = await readAll(response.body, entry.packed_size, onChunk);
    await checkSha256(packed, entry.packed_sha256, url);
    return unpackSegments(streamOf(packed), entry);
  }
  const [download, inflate] = response.body.tee();
  const memory = unpackSegments(gunzip(inflate), entry);
  memory.catch(() => {}); // a corrupt download is reported by the checksum below
  const compressed = await readAll(download, entry.size, onChunk);
  onMark("snapshot downloaded");
  await checkSha256(compressed, entry.sha256, url);
  const image = await memory;
  onMark("snapshot inflated");
  return image;
}

// The files of the wheel (a zip of stored or deflated entries), to be written by
// Pyodide's fsInit hook before Python runs: ~10x faster than unpackArchive() in Python.
// Throws on anything unusual (zip64, other methods, unsafe paths); the engine then
// falls back to pyodide.unpackArchive().
async function readWheel(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end -= 1;
  if (end < 0) throw new Error("the wheel is not a zip file");
  const count = view.getUint16(end + 10, true);
  let entry = view.getUint32(end + 16, true);
  const names = new TextDecoder();
  const files = [];
  for (let i = 0; i < count; i += 1) {
    if (view.getUint32(entry, true) !== 0x02014b50) throw new Error("bad zip central directory");
    const method = view.getUint16(entry + 10, true);
    const compressedSize = view.getUint32(entry + 20, true);
    const size = view.getUint32(entry + 24, true);
    const nameLength = view.getUint16(entry + 28, true);
    const local = view.getUint32(entry + 42, true);
    const name = names.decode(bytes.subarray(entry + 46, entry + 46 + nameLength));
    entry += 46 + nameLength + view.getUint16(entry + 30, true) + view.getUint16(entry + 32, true);
    if (name.endsWith("/")) continue;
    if (name.startsWith("/") || name.split("/").includes(".."))
      throw new Error(`unsafe path ${name}`);
    if (method !== 0 && method !== 8) throw new Error(`${name}: zip method ${method}`);
    if (compressedSize === 0xffffffff || local === 0xffffffff) throw new Error("zip64 wheel");
    if (view.getUint32(local, true) !== 0x04034b50) throw new Error(`${name}: bad local header`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = bytes.subarray(start, start + compressedSize);
    files.push({ name, size, content: method === 0 ? data : inflateRaw(data, size) });
  }
  for (const file of files) {
    file.content = await file.content;
    if (file.content.length !== file.size) throw new Error(`${file.name}: wrong size`);
  }
  return files;
}

function inflateRaw(data, size) {
  return readAll(streamOf(data).pipeThrough(new DecompressionStream("deflate-raw")), size);
}
