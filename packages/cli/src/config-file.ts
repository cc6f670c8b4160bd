import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { ScanMode } from "@scan/contract";
import { z } from "zod";

/** The file read from the working directory when no --config is given. */
export const DEFAULT_CONFIG_FILE = ".aeoscanrc.json";

/** `.aeoscanrc.json`: the scan mode and the assertions a CI job gates on; unknown keys are refused. */
export const ConfigFile = z.strictObject({
  mode: ScanMode.optional(),
  assertions: z.record(z.string(), z.unknown()).optional(),
});
export type ConfigFile = z.infer<typeof ConfigFile> & { path: string | null };

/**
 * The config file named by --config, or `.aeoscanrc.json` in `cwd` when there is one, or none.
 * Throws an Error naming the file and what is wrong with it.
 */
export const loadConfigFile = (explicit: string | undefined, cwd: string): ConfigFile => {
  const path = explicit === undefined ? resolve(cwd, DEFAULT_CONFIG_FILE) : resolve(cwd, explicit);
  if (explicit === undefined && !existsSync(path)) return { path: null };
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new Error(
      `cannot read the config file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`the config file ${path} is not JSON: ${(error as Error).message}`);
  }
  const parsed = ConfigFile.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((issue) =>
        issue.code === "unrecognized_keys"
          ? `unknown key ${issue.keys.map((key) => `"${key}"`).join(", ")} (it takes "mode" and "assertions")`
          : `${issue.path.join(".") || "file"}: ${issue.message}`,
      );
    throw new Error(`the config file ${path}: ${issues.join("; ")}`);
  }
  return { ...parsed.data, path };
};
