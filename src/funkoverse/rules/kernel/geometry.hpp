// Sight, adjacency, movement, push and pull, placing and challenge targets with the pieces
// of a state (funkoverse.rules.geometry and the questions of funkoverse.rules.world).
#pragma once

#include "kernel.hpp"

namespace fk {

inline bool king_adjacent(const Board& b, int a, int c) { return b.distance(a, c) <= 1; }

// geometry.sight_blockers(viewer, on_map, board): standing rivals of a blocking kind; an
// elusive one only beside or diagonal to the viewer (a card's `elusive` field).
inline Bits sight_blockers(Game& g, int viewer) {
    const State& S = *g.S;
    const Piece& v = S.pieces[viewer];
    Bits out;
    if (v.square < 0) return out;
    const Board& b = g.B();
    for (int i = 0; i < S.npieces; ++i) {
        const Piece& p = S.pieces[i];
        if (p.square < 0 || p.side == v.side || !p.standing || !blocking_kind(p.kind)) continue;
        if (p.elusive && !king_adjacent(b, v.square, p.square)) continue;
        out.set(p.square);
    }
    return out;
}

// geometry._unblocked: rule 2 for a target already in the table's base
inline bool unblocked(const Board& b, int origin, int target, const Bits& blockers) {
    const Bits& base = b.base[origin];
    for (int16_t s : b.between[origin][target])
        if (blockers.test(s) && base.test(s) && unblocked(b, origin, s, blockers)) return false;
    return true;
}

// geometry.can_see
inline bool can_see(const Board& b, int origin, int target, const Bits& blockers) {
    if (!b.base[origin].test(target)) return false;
    if (!blockers.any()) return true;
    return unblocked(b, origin, target, blockers);
}

// geometry.visible_squares: the base table minus the shadow of each seen blocker, nearest first
inline Bits visible_squares(const Board& b, int origin, const Bits& blockers) {
    Bits seen = b.base[origin];
    if (!blockers.any()) return seen;
    const auto& hs = b.has_shadow[origin];
    int near[MAX_SQUARES];
    int nn = 0;
    blockers.each([&](int s) {
        if (hs[s]) near[nn++] = s;
    });
    if (!nn) return seen;
    if (nn > 1) {
        int ox = origin % b.width, oy = origin / b.width;
        auto d2 = [&](int s) {
            int dx = s % b.width - ox, dy = s / b.width - oy;
            return dx * dx + dy * dy;
        };
        std::stable_sort(near, near + nn, [&](int a, int c) { return d2(a) < d2(c); });
    }
    for (int i = 0; i < nn; ++i)
        if (seen.test(near[i])) seen = seen.minus(b.shadow[origin][near[i]]);
    return seen;
}

// geometry.can_see_piece
inline bool can_see_piece(Game& g, int viewer, int target) {
    const Piece& v = g.S->pieces[viewer];
    const Piece& t = g.S->pieces[target];
    if (v.square < 0 || t.square < 0) return false;
    const Board& b = g.B();
    if (t.elusive && t.side != v.side && !king_adjacent(b, v.square, t.square)) return false;
    return can_see(b, v.square, t.square, sight_blockers(g, viewer));
}

// geometry._occupancy: (squares the piece may not end in, squares it may not pass through)
inline void occupancy(Game& g, int pi, Bits& occupied, Bits& impassable) {
    const State& S = *g.S;
    const Piece& piece = S.pieces[pi];
    if (!blocking_kind(piece.kind)) return;
    for (int i = 0; i < S.npieces; ++i) {
        const Piece& p = S.pieces[i];
        if (p.square < 0 || !blocking_kind(p.kind) || i == pi) continue;
        occupied.set(p.square);
        if (p.side != piece.side && p.standing) impassable.set(p.square);
    }
}

// Tokens a trait links as adjacent for a move (TraitHook.move_links): empty when none
struct Links {
    Bits squares;  // squares with a linking token, when two or more are on the map
    int reach = 0;  // how many squares apart two linked tokens may be (the card's number)
    bool any() const { return squares.count() >= 2; }
};

// geometry._reach without a rule on each step: squares reached a ring at a time
inline Bits reach_rings(const Board& b, int start, int steps, const Bits& impassable,
                        const Links* links) {
    Bits reached, ring;
    reached.set(start);
    ring.set(start);
    for (int k = 0; k < steps; ++k) {
        Bits nxt;
        ring.each([&](int sq) {
            for (int16_t to : b.steps[sq]) nxt.set(to);
            if (links && links->squares.test(sq)) {
                links->squares.each([&](int t) {
                    if (t != sq && b.distance(sq, t) <= links->reach) nxt.set(t);
                });
            }
        });
        nxt = nxt.minus(reached).minus(impassable);
        if (!nxt.any()) break;
        reached |= nxt;
        ring = nxt;
    }
    reached.reset(start);
    return reached;
}

// geometry._reach with `allowed(frm, to)` on each step (push and pull)
template <class Allowed>
inline Bits reach_allowed(const Board& b, int start, int steps, const Bits& impassable,
                          Allowed allowed) {
    Bits seen;
    seen.set(start);
    int frontier[MAX_SQUARES], ahead[MAX_SQUARES];
    int nf = 1, na;
    frontier[0] = start;
    for (int k = 0; k < steps; ++k) {
        na = 0;
        for (int f = 0; f < nf; ++f) {
            int sq = frontier[f];
            for (int16_t to : b.steps[sq]) {
                if (seen.test(to) || impassable.test(to)) continue;
                if (!allowed(sq, to)) continue;
                seen.set(to);
                ahead[na++] = to;
            }
        }
        if (!na) break;
        std::memcpy(frontier, ahead, sizeof(int) * na);
        nf = na;
    }
    seen.reset(start);
    return seen;
}

// geometry.move_destinations
inline Bits move_destinations(Game& g, int pi, int steps, const Links* links) {
    const Piece& piece = g.S->pieces[pi];
    if (piece.square < 0 || steps <= 0) return Bits();
    Bits occupied, impassable;
    occupancy(g, pi, occupied, impassable);
    return reach_rings(g.B(), piece.square, steps, impassable, links).minus(occupied);
}

// geometry.push_destinations, away from square `away`
inline Bits push_destinations(Game& g, int pi, int away, int steps) {
    const Piece& piece = g.S->pieces[pi];
    if (piece.square < 0 || steps <= 0) return Bits();
    Bits occupied, impassable;
    occupancy(g, pi, occupied, impassable);
    const Board& b = g.B();
    int w = b.width, ax = away % w, ay = away / w;
    auto cheb = [&](int s) { return std::max(std::abs(s % w - ax), std::abs(s / w - ay)); };
    Bits reached = reach_allowed(b, piece.square, steps, impassable,
                                 [&](int frm, int to) { return cheb(to) > cheb(frm); });
    return reached.minus(occupied);
}

// geometry.pull_destinations, toward `puller`
inline Bits pull_destinations(Game& g, int pi, int puller, int steps) {
    const Piece& piece = g.S->pieces[pi];
    int start = piece.square, at = g.S->pieces[puller].square;
    if (start < 0 || at < 0 || steps <= 0) return Bits();
    if (!can_see_piece(g, puller, pi)) return Bits();
    Bits blockers = sight_blockers(g, puller);
    Bits occupied, impassable;
    occupancy(g, pi, occupied, impassable);
    const Board& b = g.B();
    Bits reached = reach_allowed(b, start, steps, impassable, [&](int frm, int to) {
        return b.distance(at, to) < b.distance(at, frm) && can_see(b, at, to, blockers);
    });
    return reached.minus(occupied);
}

// geometry.placeable for a blocking kind; `except` is a piece left out of the question
inline bool placeable(Game& g, int square, int except = -1) {
    const Board& b = g.B();
    if (square < 0 || square >= b.n || b.blocked.test(square)) return false;
    const State& S = *g.S;
    for (int i = 0; i < S.npieces; ++i) {
        if (i == except) continue;
        const Piece& p = S.pieces[i];
        if (p.square == square && blocking_kind(p.kind)) return false;
    }
    return true;
}

// geometry.challengeable
inline bool challengeable(const Piece& p) {
    if (p.kind <= K_COMPANION) return true;
    return p.defense >= 0;  // tokens and markers with a defense
}

// geometry.challenge_targets: rivals in reach, sorted by id. `range` < 0: adjacent.
inline int challenge_targets(Game& g, int ci, int range, int* out) {
    const State& S = *g.S;
    const Piece& c = S.pieces[ci];
    if (c.square < 0) return 0;
    const Board& b = g.B();
    const Bits& adjacent = b.adjacent_bits[c.square];
    bool have_blockers = false;
    Bits blockers;
    int n = 0;
    for (int i = 0; i < S.npieces; ++i) {
        const Piece& p = S.pieces[i];
        if (p.square < 0 || p.side == c.side || i == ci) continue;
        if (!challengeable(p)) continue;
        if (p.elusive && !king_adjacent(b, c.square, p.square)) continue;
        if (range < 0) {
            if (adjacent.test(p.square)) out[n++] = i;
        } else if (b.distance(c.square, p.square) <= range) {
            if (!have_blockers) {
                blockers = sight_blockers(g, ci);
                have_blockers = true;
            }
            if (can_see(b, c.square, p.square, blockers)) out[n++] = i;
        }
    }
    if (n > 1)
        std::stable_sort(out, out + n, [&](int a, int d) { return S.pieces[a].rank < S.pieces[d].rank; });
    return n;
}

inline bool has_challenge_target(Game& g, int ci, int range) {
    int buf[MAX_PIECES];
    return challenge_targets(g, ci, range, buf) > 0;
}

// Ask a question as if piece `pi` stood on `square` (vocabulary._from_square)
struct AtSquare {
    Piece& p;
    int16_t was;
    AtSquare(Game& g, int pi, int square) : p(g.S->pieces[pi]), was(p.square) {
        p.square = int16_t(square);
    }
    ~AtSquare() { p.square = was; }
};

}  // namespace fk
