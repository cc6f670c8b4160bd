import { AUDIT_PAGE_ENDED, AUDIT_PAGE_OPEN, AUDIT_PAGE_STATES, AUDIT_PAGE_TRANSITIONS } from "./audit-pages";
import { AUDIT_ENDED, AUDIT_STATES, AUDIT_TRANSITIONS, AUDIT_UNDER_WAY } from "./audits";
import { CALLBACK_TRANSITIONS, SCAN_ENDED, SCAN_STATES, SCAN_TRANSITIONS } from "./scans";
import { allows, type Transitions } from "./transitions";
import {
  RUN_ENDED,
  RUN_STATES,
  RUN_TRANSITIONS,
  SAMPLE_ENDED,
  SAMPLE_STATES,
  SAMPLE_TRANSITIONS,
} from "./visibility-runs";

type Kind = {
  name: string;
  states: readonly string[];
  initial: string;
  ended: readonly string[];
  table: Transitions<string>;
};

const KINDS: Kind[] = [
  { name: "scan", states: SCAN_STATES, initial: "queued", ended: SCAN_ENDED, table: SCAN_TRANSITIONS },
  { name: "audit", states: AUDIT_STATES, initial: "discovering", ended: AUDIT_ENDED, table: AUDIT_TRANSITIONS },
  {
    name: "audit page",
    states: AUDIT_PAGE_STATES,
    initial: "queued",
    ended: AUDIT_PAGE_ENDED,
    table: AUDIT_PAGE_TRANSITIONS,
  },
  {
    name: "callback",
    states: ["pending", "delivered", "failed"],
    initial: "pending",
    ended: ["delivered", "failed"],
    table: CALLBACK_TRANSITIONS,
  },
  { name: "visibility run", states: RUN_STATES, initial: "queued", ended: RUN_ENDED, table: RUN_TRANSITIONS },
  {
    name: "visibility sample",
    states: SAMPLE_STATES,
    initial: "queued",
    ended: SAMPLE_ENDED,
    table: SAMPLE_TRANSITIONS,
  },
];

/** the moves that change a row's state (the others only change columns) */
const stateMoves = (table: Transitions<string>) =>
  Object.entries(table).flatMap(([name, move]) => (move.to === null ? [] : [{ name, ...move, to: move.to }]));

describe.each(KINDS)("the $name transition table", ({ states, initial, ended, table }) => {
  it("names only the kind's states", () => {
    for (const move of Object.values(table)) {
      expect(move.from.length).toBeGreaterThan(0);
      for (const state of move.from) expect(states).toContain(state);
      if (move.to !== null) expect(states).toContain(move.to);
    }
    for (const state of ended) expect(states).toContain(state);
  });

  it("moves no row out of an ended state", () => {
    const leaving = stateMoves(table).filter((move) =>
      move.from.some((state) => ended.includes(state) && state !== move.to),
    );
    expect(leaving.map((move) => move.name)).toEqual([]);
  });

  it("reaches every state from the first, and an ended state from every state", () => {
    const next = (state: string) => stateMoves(table).flatMap((move) => (allows(move, state) ? [move.to] : []));
    const reached = new Set([initial]);
    for (const state of reached) for (const to of next(state)) reached.add(to);
    expect([...reached].sort()).toEqual([...states].sort());
    for (const state of states) {
      const seen = new Set([state]);
      for (const s of seen) for (const to of next(s)) seen.add(to);
      expect([...seen].some((s) => ended.includes(s))).toBe(true);
    }
  });

  it("calls a state ended exactly when no move takes a row out of it", () => {
    const leaves = (state: string) => stateMoves(table).some((move) => allows(move, state) && move.to !== state);
    expect(states.filter((state) => !leaves(state)).sort()).toEqual([...ended].sort());
  });
});

describe("the tables agree with each other", () => {
  it("an audit under way is one that can still fail or be cancelled", () => {
    expect([...AUDIT_TRANSITIONS.fail.from].sort()).toEqual([...AUDIT_UNDER_WAY].sort());
    expect([...AUDIT_TRANSITIONS.cancel.from].sort()).toEqual([...AUDIT_UNDER_WAY].sort());
    expect(AUDIT_STATES.filter((state) => !AUDIT_ENDED.includes(state as never)).sort()).toEqual(
      [...AUDIT_UNDER_WAY].sort(),
    );
  });

  it("an open page is one that is not ended, and the one a sweep may requeue", () => {
    expect(AUDIT_PAGE_STATES.filter((state) => !AUDIT_PAGE_ENDED.includes(state as never)).sort()).toEqual(
      [...AUDIT_PAGE_OPEN].sort(),
    );
    expect([...AUDIT_PAGE_TRANSITIONS.requeue.from].sort()).toEqual([...AUDIT_PAGE_OPEN].sort());
  });

  it("a scan may complete from queued (a worker stores a scan the reaper queued again), never once ended", () => {
    expect(allows(SCAN_TRANSITIONS.complete, "queued")).toBe(true);
    for (const state of SCAN_ENDED) {
      expect(allows(SCAN_TRANSITIONS.complete, state)).toBe(false);
      expect(allows(SCAN_TRANSITIONS.fail, state)).toBe(false);
    }
  });

  it("retention prunes only what has ended", () => {
    expect([...SCAN_TRANSITIONS.pruneChecks.from].sort()).toEqual([...SCAN_ENDED].sort());
    expect([...AUDIT_TRANSITIONS.prunePageChecks.from].sort()).toEqual([...AUDIT_ENDED].sort());
  });
});
