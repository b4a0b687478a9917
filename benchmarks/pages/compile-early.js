// The former engine-worker patches of the global fetch and WebAssembly.instantiateStreaming
// (removed in f227078), kept only to measure what they are worth
// (benchmarks/site_variants.py compile-early): the WebAssembly is compiled from the
// worker's own early download, as soon as its URL is fetched, and Pyodide's
// instantiateStreaming() is handed that module instead of compiling its own response.
// Without them Pyodide compiles only once its loadPyodide() reaches instantiation, which
// with the snapshot is after the snapshot has arrived.
{
  const nativeFetch = self.fetch;
  const instantiateStreaming = WebAssembly.instantiateStreaming;
  let compiled = null;
  self.fetch = function (resource, init) {
    const url = String(resource instanceof Request ? resource.url : resource);
    if (!compiled && url.endsWith("/pyodide.asm.wasm")) {
      compiled = WebAssembly.compileStreaming(nativeFetch.call(self, url));
      compiled.catch(() => {}); // Pyodide's own instantiation reports any failure
    }
    return nativeFetch.call(self, resource, init);
  };
  WebAssembly.instantiateStreaming = async function (source, imports) {
    if (!compiled) return instantiateStreaming.call(this, source, imports);
    const module = await compiled;
    (await source).body?.cancel();
    return { module, instance: await WebAssembly.instantiate(module, imports) };
  };
}
