// The former engine worker's way of installing the wheel, kept only to measure what it
// is worth (benchmarks/site_variants.py wheel-in-fsinit): the wheel's files written into
// site-packages by Pyodide's fsInit hook, before Python runs, from a zip read here,
// instead of loadPackage once Python has started.
async function unzipInto(FS, directory, bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22; // the end-of-central-directory record
  while (view.getUint32(end, true) !== 0x06054b50) end--;
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const names = new TextDecoder();
  const files = [];
  for (let i = 0; i < count; i++) {
    const method = view.getUint16(at + 10, true);
    const compressed = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const skip = view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = names.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + skip;
    if (name.endsWith("/")) continue;
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    files.push(inflate(method, bytes.subarray(start, start + compressed)).then((data) => [name, data]));
  }
  for (const [name, data] of await Promise.all(files)) {
    const path = `${directory}/${name}`;
    FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    FS.writeFile(path, data);
  }
}

async function inflate(method, raw) {
  if (method === 0) return raw;
  const stream = new Blob([raw]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
