// The build step a TypeScript server would have (tsc, esbuild): here it copies src/ to dist/.
// The server toolgate starts is the built one, so CI must build before it checks.
import { cpSync, mkdirSync } from "node:fs";
mkdirSync("dist", { recursive: true });
cpSync("src", "dist", { recursive: true });
