import type { Template } from "./template.js";

const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Counter</title>
    <link rel="stylesheet" href="style.css" />
  </head>
  <body>
    <main>
      <h1>Counter</h1>
      <p>Clicked <output id="count">0</output> times.</p>
      <button id="add" type="button">Add one</button>
    </main>
    <script type="module" src="app.js"></script>
  </body>
</html>
`;

const APP = `// Counts the clicks. Ask the agent for more: a reset button, a saved count, a second counter.
const output = document.getElementById("count");
let count = 0;
document.getElementById("add").addEventListener("click", () => {
  count += 1;
  output.textContent = String(count);
});
`;

const STYLE = `body {
  font-family: system-ui, sans-serif;
  display: grid;
  place-items: center;
  min-height: 100vh;
  margin: 0;
}
button {
  font: inherit;
  padding: 0.4em 1em;
}
`;

const README = `# Web app

A plain HTML, CSS and JavaScript page: no build step. Open the **Preview** tab (middle) on
\`web-app/index.html\` to see it; it reloads as the files change.
`;

export const webApp: Template = {
  id: "web-app",
  title: "Web page (HTML, CSS, JS)",
  summary: "A counter page with no build step; the Preview tab shows it.",
  main: "index.html",
  files: { "index.html": INDEX, "app.js": APP, "style.css": STYLE, "README.md": README },
};
