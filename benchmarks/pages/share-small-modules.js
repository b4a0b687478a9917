// The former engine-worker patch of the global WebAssembly.Module, kept only to measure
// what it was worth (benchmarks/site_variants.py share-small-modules).
const SMALL_MODULE_BYTES = 256;

function shareSmallModules() {
  const compiled = new Map(); // bytes as text -> WebAssembly.Module
  WebAssembly.Module = new Proxy(WebAssembly.Module, {
    construct(target, args, newTarget) {
      const [bytes] = args;
      if (!(bytes instanceof Uint8Array) || bytes.length > SMALL_MODULE_BYTES) {
        return Reflect.construct(target, args, newTarget);
      }
      const key = String.fromCharCode(...bytes);
      let module = compiled.get(key);
      if (!module) {
        module = Reflect.construct(target, args, newTarget);
        compiled.set(key, module);
      }
      return module;
    },
  });
}
shareSmallModules();
