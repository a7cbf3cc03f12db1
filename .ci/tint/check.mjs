// Compiles WGSL with Tint, the WGSL compiler of Dawn (Chromium's WebGPU), on Dawn's null
// backend, so no GPU is needed. Tint implements the WGSL specification's uniformity analysis,
// which naga 30 does not apply to barriers; tests/shaders.rs drives this script.
//
// usage: node check.mjs (accept|reject):FILE ...
//   accept:FILE  the shader must compile without errors
//   reject:FILE  the shader must fail with a uniformity error
// Prints one line per file; exits 0 only when every expectation holds.
import { readFileSync } from 'node:fs';
import { create, globals } from 'webgpu';

Object.assign(globalThis, globals);

const gpu = create(['backend=null']);

/// The error messages Tint gives for `code`. Each shader gets an adapter and device of its own: a second
/// failing module on one device crashes dawn.node 0.6.2 (with error scopes or a handler alike).
async function compile(code) {
    const adapter = await gpu.requestAdapter();
    if (!adapter) {
        console.error('tint: Dawn found no null-backend adapter');
        process.exit(2);
    }
    // Shaders that enable subgroups need a device with the feature.
    const requiredFeatures = code.startsWith('enable subgroups;') ? ['subgroups'] : [];
    const device = await adapter.requestDevice({ requiredFeatures });
    // The errors are read from getCompilationInfo (dawn.node also logs them to stderr).
    const module = device.createShaderModule({ code });
    const info = await module.getCompilationInfo();
    return info.messages.filter((m) => m.type === 'error');
}

let failures = 0;
for (const argument of process.argv.slice(2)) {
    const split = argument.indexOf(':');
    const expectation = argument.slice(0, split);
    const file = argument.slice(split + 1);
    if (expectation !== 'accept' && expectation !== 'reject') {
        console.error(`tint: bad argument ${argument}: expected accept:FILE or reject:FILE`);
        process.exit(2);
    }
    const errors = await compile(readFileSync(file, 'utf8'));
    const text = errors.map((m) => `${m.lineNum}:${m.linePos}: ${m.message}`).join(' | ');
    const uniformity = errors.some((m) => m.message.includes('uniform control flow'));
    const holds = expectation === 'accept' ? errors.length === 0 : uniformity;
    if (!holds) failures += 1;
    console.log(`${holds ? 'ok  ' : 'FAIL'} ${expectation} ${file}${text ? ` -- ${text}` : ''}`);
}
process.exit(failures ? 1 : 0);
