import { Agent, fetch } from "/work/wt/harden-cli/node_modules/undici/index.js";
const agent = new Agent({ connect: { lookup: (h, o, cb) => o.all ? cb(null, [{ address: "127.0.0.2", family: 4 }]) : cb(null, "127.0.0.2", 4) } });
const r = await fetch(`http://x.example.test:45123/`, { dispatcher: agent });
console.log(await r.text());
