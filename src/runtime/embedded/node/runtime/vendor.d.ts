// Browser builds of Node's modules that ship no types: they follow Node's own API, so Node's types describe them.
declare module "readable-stream" {
  import stream from "node:stream";
  export = stream;
}
declare module "path-browserify" {
  import path from "node:path";
  export default path;
}
declare module "querystring-es3" {
  import querystring from "node:querystring";
  export default querystring;
}
