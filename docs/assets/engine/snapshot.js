// The engine's memory snapshot as the network carries it, and back again. One module for
// the build (build_scripts/bundle/make_snapshot.mjs, in Node), the engine worker (which
// imports it only when it restores a snapshot) and the tests, so that packing and
// unpacking cannot drift apart.
//
// A Pyodide memory snapshot is a header, then the WebAssembly memory. The lowest 4 MB of
// that memory are the program's static data: the WebAssembly file's data segments give
// them their first values, and Python changes few of them (75 kB of 4 MB for Pyodide
// 314.0.8). So the build XORs the memory with those first values (xorStaticData): what
// Python left alone becomes zero, and the build's packing (engine.py pack_memory) drops
// the all-zero pages. The worker has the WebAssembly file anyway (it is the runtime) and
// undoes both (unpackSnapshot). Measured on the build of 2026-12-07 (brotli, quality 11):
// the snapshot 3,490,200 -> 2,490,422 bytes, 1.0 MB less for every visit that uses it
// (2,529,776 once the build stopped zeroing the C heap's free memory: make_snapshot.mjs).
//
// The snapshot then restores an interpreter whose zipimport remembers the table of
// contents of the standard library it was made on. A worker that restores it gives
// Python only the modules the snapshot has not imported (the manifest's snapshot.stdlib),
// so it re-reads that table first: RESTORED runs before anything else imports.

const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
const DATA_SECTION = 11;
const I32_CONST = 0x41;
const END = 0x0b;

/** Python to run at once on an interpreter restored from the snapshot. */
export const RESTORED = "import importlib; importlib.invalidate_caches()";

class SnapshotFormatError extends Error {}

// A WebAssembly file's active data segments: [{address, start, length}], where `start` is
// the segment's first byte in `wasm` and `address` where it goes in memory. Anything this
// does not know (a passive segment, an offset that is not a constant) is an error: the
// build then fails, and a worker starts Python without the snapshot.
export function dataSegments(wasm) {
  if (WASM_MAGIC.some((byte, i) => wasm[i] !== byte)) {
    throw new SnapshotFormatError("not a WebAssembly file of version 1");
  }
  let at = WASM_MAGIC.length;
  const unsigned = () => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = wasm[at++];
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  };
  const signed32 = () => {
    let value = 0;
    let shift = 0;
    let byte;
    do {
      byte = wasm[at++];
      value |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    return shift < 32 && byte & 0x40 ? value | (-1 << shift) : value;
  };
  while (at < wasm.length) {
    const id = wasm[at++];
    const size = unsigned();
    if (id !== DATA_SECTION) {
      at += size;
      continue;
    }
    const segments = [];
    for (let count = unsigned(); count > 0; count--) {
      const kind = unsigned();
      if (kind !== 0 || wasm[at++] !== I32_CONST) {
        const which = `data segment ${segments.length}`;
        throw new SnapshotFormatError(`${which} is not active at a constant address`);
      }
      const address = signed32() >>> 0;
      if (wasm[at++] !== END) throw new SnapshotFormatError("unexpected data segment offset");
      const length = unsigned();
      segments.push({ address, start: at, length });
      at += length;
    }
    return segments;
  }
  return [];
}

// XOR the memory in `snapshot` (from byte `memoryOffset` on) with the first values the
// WebAssembly file gives it. Its own inverse: the build packs with it, the worker unpacks.
export function xorStaticData(snapshot, memoryOffset, wasm) {
  for (const { address, start, length } of dataSegments(wasm)) {
    const to = memoryOffset + address;
    if (to + length > snapshot.length) {
      throw new SnapshotFormatError("a data segment lies beyond the snapshot");
    }
    for (let i = 0; i < length; i++) snapshot[to + i] ^= wasm[start + i];
  }
  return snapshot;
}

/**
 * The snapshot Pyodide restores, from the published file: its kept runs of pages written
 * into a zero-filled buffer (`entry.segments`: [offset, length] of each, `entry.raw_size`
 * in all), then the static data XORed back with the WebAssembly file's first values.
 */
export function unpackSnapshot(packed, entry, wasm) {
  const snapshot = new Uint8Array(entry.raw_size);
  let offset = 0;
  for (const [start, length] of entry.segments) {
    snapshot.set(packed.subarray(offset, offset + length), start);
    offset += length;
  }
  if (offset !== packed.length) {
    const sizes = `${packed.length} bytes, its segments ${offset}`;
    throw new SnapshotFormatError(`the snapshot has ${sizes}`);
  }
  return xorStaticData(snapshot, entry.memory_offset, wasm);
}
