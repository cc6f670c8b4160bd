import { type AnchorHTMLAttributes, type MouseEvent, useSyncExternalStore } from "react";

/**
 * The dashboard's own small router over the History API: every page has a URL under /app/
 * (the gateway answers index.html for any of them), links are real links, and Back works.
 */
export const BASE = "/app";

const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};
window.addEventListener("popstate", notify);

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The path inside the dashboard (`/scans/…`), its query and its fragment. */
export type Place = { path: string; search: URLSearchParams; hash: URLSearchParams };

let cachedKey = "";
let cachedPlace: Place = { path: "/", search: new URLSearchParams(), hash: new URLSearchParams() };

const currentPlace = (): Place => {
  const key = `${location.pathname}${location.search}${location.hash}`;
  if (key !== cachedKey) {
    const inside = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : location.pathname;
    cachedKey = key;
    cachedPlace = {
      path: inside === "" ? "/" : inside,
      search: new URLSearchParams(location.search),
      hash: new URLSearchParams(location.hash.slice(1)),
    };
  }
  return cachedPlace;
};

export const usePlace = (): Place => useSyncExternalStore(subscribe, currentPlace);

/** `to` is a path inside the dashboard, with its query: `/scans?page=2`. */
export const navigate = (to: string, { replace = false }: { replace?: boolean } = {}) => {
  const url = `${BASE}${to}`;
  if (replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  notify();
};

/** The current path and query, to come back to after signing in. */
export const currentTarget = (): string => {
  const place = currentPlace();
  const query = place.search.toString();
  return query ? `${place.path}?${query}` : place.path;
};

/** `/scans/:id` against `/scans/42` → `{id: "42"}`; null when it does not match. */
export const match = (pattern: string, path: string): Record<string, string> | null => {
  const want = pattern.split("/");
  const have = path.replace(/\/$/, "").split("/");
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    const value = have[i] ?? "";
    if (part.startsWith(":")) {
      if (!value) return null;
      params[part.slice(1)] = decodeURIComponent(value);
    } else if (part !== value) return null;
  }
  return params;
};

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & { to: string };

/** A link inside the dashboard: a plain click moves without reloading; a modified click opens a tab as usual. */
export const Link = ({ to, onClick, ...props }: LinkProps) => {
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={`${BASE}${to}`} onClick={follow} {...props} />;
};
