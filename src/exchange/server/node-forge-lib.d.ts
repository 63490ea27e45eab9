/**
 * Types of the node-forge modules the sandbox's TLS setup (tls.ts) imports one by one: its index
 * pulls in every algorithm and protocol forge has (TLS, SSH, PKCS#12, ciphers, …, ≈ 300 KB minified)
 * where the certificates need only X.509 and SHA-256 (≈ 175 KB). `node-forge/lib/forge` is the shared
 * namespace the other modules register into, so it has the type of the whole package (@types/node-forge).
 */
declare module 'node-forge/lib/forge' {
  import forge from 'node-forge';
  export = forge;
}
declare module 'node-forge/lib/x509';
declare module 'node-forge/lib/sha256';
