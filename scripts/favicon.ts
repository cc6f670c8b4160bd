import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resolveChromiumPath } from "@scan/scanner";
import { chromium } from "playwright-core";

/**
 * Renders services/gateway/assets/favicon.svg into favicon.ico beside it (16, 32 and 48 pixels,
 * each a PNG inside the ICO container, as every browser since 2007 reads it). Run after
 * changing the SVG: `pnpm exec tsx scripts/favicon.ts`.
 */
const ASSETS = join(__dirname, "..", "services", "gateway", "assets");
const SIZES = [16, 32, 48];

/** The ICO container: a 6-byte header, a 16-byte entry per image, then the PNGs. */
const icoOf = (images: ReadonlyArray<{ size: number; png: Buffer }>): Buffer => {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // 1: icon
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size % 256, 0); // 0 means 256
    entry.writeUInt8(size % 256, 1);
    entry.writeUInt8(0, 2); // no palette
    entry.writeUInt8(0, 3);
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map(({ png }) => png)]);
};

const main = async () => {
  const svg = readFileSync(join(ASSETS, "favicon.svg"), "utf8");
  const args = process.getuid?.() === 0 ? ["--no-sandbox"] : [];
  const browser = await chromium.launch({ executablePath: resolveChromiumPath(undefined), args });
  try {
    const images = [];
    for (const size of SIZES) {
      const page = await browser.newPage({ viewport: { width: size, height: size } });
      await page.setContent(
        `<!doctype html><style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${svg}`,
      );
      images.push({ size, png: await page.screenshot({ omitBackground: true }) });
      await page.close();
    }
    writeFileSync(join(ASSETS, "favicon.ico"), icoOf(images));
    console.log(`wrote favicon.ico (${SIZES.join(", ")} px)`);
  } finally {
    await browser.close();
  }
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
