import { startStackProcess } from "./support/stack-process";

/**
 * Starts the stack the browser tests use and hands its addresses to the tests through the
 * environment; stops it when the run ends.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const stack = await startStackProcess();
  Object.assign(process.env, stack.env);
  return stack.stop;
}
