// Jest's module runtime (jest-runtime) with V8's code cache for the modules a worker compiles.
//
// Jest gives every test file a fresh module registry, so every e2e file compiles the whole
// service again: about 1,200 modules, 11 MB of JavaScript (Nest, Apollo, src/),
// about half a CPU-second per file. A worker runs dozens of files: from its second file on, V8
// takes each module's compiled top level from the cache this worker made the first time (for the
// same transformed source, compared in full) instead of parsing it again. Only the parse is saved:
// each file still gets its own registry, its own module instances and its own globals.
// Decision 0161. jest.config.js names it as `runtime`.
'use strict';
const vm = require('node:vm');
const { default: Runtime } = require('jest-runtime');

/** This worker's cache: file name → the source compiled and V8's code cache for it. */
const cache = new Map();
const compileFunction = vm.compileFunction;
let warned = false;

class CodeCachingRuntime extends Runtime {
  constructor(...args) {
    super(...args);
    // jest-runtime 30 compiles every CommonJS module through its module executor's
    // compile(source, filename), which calls vm.compileFunction. Another version may not.
    const executor = this.executor;
    if (!executor || typeof executor.compile !== 'function') {
      if (!warned)
        console.warn('code-caching-runtime: jest-runtime has no executor.compile; running without the cache');
      warned = true;
      return;
    }
    const compile = executor.compile;
    executor.compile = function (source, filename) {
      const known = cache.get(filename);
      const cachedData = known !== undefined && known.source === source ? known.data : undefined;
      // Synchronous: vm.compileFunction is swapped only while this one module compiles.
      vm.compileFunction = (code, params, options) => {
        const fn = compileFunction(code, params, {
          ...options,
          cachedData,
          produceCachedData: cachedData === undefined,
        });
        if (cachedData === undefined && fn.cachedData) cache.set(filename, { source, data: fn.cachedData });
        else if (fn.cachedDataRejected) cache.delete(filename); // V8 refused it (flags changed): made again next time
        return fn;
      };
      try {
        return compile.call(this, source, filename);
      } finally {
        vm.compileFunction = compileFunction;
      }
    };
  }
}

module.exports = CodeCachingRuntime;
