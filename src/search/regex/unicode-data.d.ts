declare module "unicode-match-property-value-ecmascript/data/mappings.js" {
  const mappings: Map<string, Map<string, string>>;
  export default mappings;
}
declare module "unicode-property-aliases-ecmascript" {
  const aliases: Map<string, string>;
  export default aliases;
}
declare module "unicode-canonical-property-names-ecmascript" {
  const names: Set<string>;
  export default names;
}
