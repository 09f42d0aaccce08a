import { defineConfig } from "vitest/config";
import solid from "vite-plugin-solid";

const shared = { pool: "forks" as const, testTimeout: 30_000, hookTimeout: 30_000 };

// Two projects so that the component tests' Solid plugin (which adds the "browser" resolve condition to
// every environment) never changes how the Node tests resolve their packages.
export default defineConfig({
  test: {
    projects: [
      { test: { name: "node", include: ["test/**/*.test.ts"], environment: "node", ...shared } },
      {
        plugins: [solid()],
        // Solid's browser build (the default one is its server renderer, which cannot mount components).
        resolve: { conditions: ["browser", "development"] },
        test: {
          name: "ui",
          include: ["test/**/*.test.tsx"],
          environment: "happy-dom",
          ...shared,
        },
      },
    ],
  },
});
