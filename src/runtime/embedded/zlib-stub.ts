// Stands in for node:zlib in the browser bundle of just-bash: gzip, gunzip and zcat fail with this message.
function unavailable(): never {
  throw new Error("gzip is not available in the browser runtime");
}
export const constants = {};
export const gzipSync = unavailable;
export const gunzipSync = unavailable;
export const deflateSync = unavailable;
export const inflateSync = unavailable;
export const createGzip = unavailable;
export const createGunzip = unavailable;
export default { constants, gzipSync, gunzipSync, deflateSync, inflateSync, createGzip, createGunzip };
/** The commands this stub disables, so the shell does not offer them. */
export const stubbedCommands = ["gzip", "gunzip", "zcat"];
