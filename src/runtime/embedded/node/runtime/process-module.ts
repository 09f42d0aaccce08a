// What `require("process")` gives the browser builds bundled here (readable-stream asks for it): the program's process.
import { nodeProcess } from "./process.js";

export default nodeProcess;
