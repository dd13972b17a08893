// Talking to the server (the API of server-api.md) and keeping this browser's seat tokens.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function api(path, { method = "GET", body, token } = {}) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, "offline", "the server cannot be reached");
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch (e) {
    data = null;
  }
  if (!response.ok) {
    const err = (data && data.error) || { code: "error", message: text.slice(0, 200) };
    throw new ApiError(response.status, err.code, err.message);
  }
  return data;
}

// Seat tokens this browser holds, by game: { dark: "...", light: "..." }.
const KEY = "funkoverse.seats";

export function allSeats() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}");
  } catch (e) {
    return {};
  }
}

export function seatsOf(game) {
  return allSeats()[game] || {};
}

export function keepSeats(game, seats) {
  const all = allSeats();
  all[game] = { ...(all[game] || {}), ...seats };
  localStorage.setItem(KEY, JSON.stringify(all));
}

// A seat link carries its token in the fragment (never sent to the server with the page).
export function takeSeatFromLink(game) {
  const params = new URLSearchParams(location.hash.slice(1));
  const seat = params.get("seat");
  const token = params.get("token");
  if (seat && token) {
    keepSeats(game, { [seat]: token });
    history.replaceState(null, "", location.pathname + (params.get("replay") ? "#replay" : ""));
  }
}

export const SIDE_COLORS = {
  dark: "#6a3fa5",
  light: "#d99a1e",
  seat1: "#6a3fa5",
  seat2: "#d99a1e",
  seat3: "#1f8f86",
  seat4: "#c2456d",
};

export function sideColor(side) {
  return SIDE_COLORS[side] || "#555";
}

export function pct(p) {
  return `${Math.round(p * 100)}%`;
}
