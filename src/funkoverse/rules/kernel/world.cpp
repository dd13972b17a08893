// World questions: hooks, abilities, defense, reach, movement, arrival (funkoverse.rules.world).
#include "rules.hpp"

namespace fk {

// --------------------------------------------------------------------------- small questions

int piece_of(Game& g, int16_t str) {  // state.pieces.get(id): -1 when none
    if (str < 0 || str >= int(g.R->piece_of_string.size())) return -1;
    int p = g.R->piece_of_string[str];
    if (p < 0) return -1;
    if (p < g.S->npieces && g.S->pieces[p].id == str) return p;
    // a drafted team's pieces are made in the order of its picks: look it up
    for (int i = 0; i < g.S->npieces; ++i)
        if (g.S->pieces[i].id == str) return i;
    return -1;
}

int target_points(Game& g) { return points_to_win(*g.R, *g.S); }

int per_side(Game& g) { return largest_team(*g.R, *g.S); }

// seats from the first player on (setup_phase.order)
int order_from(Game& g, int first, int* out) {
    int n = g.R->nsides;
    int start = first >= 0 ? first : 0;
    for (int i = 0; i < n; ++i) out[i] = (start + i) % n;
    return n;
}

// state.characters(side)
int characters(Game& g, int side, int* out) {
    int n = 0;
    for (int i = 0; i < g.S->npieces; ++i) {
        const Piece& p = g.S->pieces[i];
        if (p.side == side && character_kind(p.kind)) out[n++] = i;
    }
    return n;
}
// --------------------------------------------------------------------------- hooks (world)

// world.hooks_of: the hooks of a piece's card and of the status cards it has been given
int hooks_of(Game& g, int pi, uint8_t* out) {
    const Piece& p = g.S->pieces[pi];
    int n = 0;
    if (p.card >= 0)
        for (uint8_t h : g.R->cards[p.card].hooks) out[n++] = h;
    for (int i = 0; i < p.nstat; ++i)
        for (uint8_t h : g.R->statuses[p.statuses[i]].hooks) out[n++] = h;
    return n;
}

// world.all_hooks: every (owner, hook) in the game, pieces in order
int all_hooks(Game& g, OwnedHook* out) {
    int n = 0;
    uint8_t hs[32];
    for (int i = 0; i < g.S->npieces; ++i) {
        const Piece& p = g.S->pieces[i];
        if (p.card < 0 || !character_kind(p.kind)) continue;
        if (g.R->cards[p.card].hooks.empty() && p.nstat == 0) continue;
        int k = hooks_of(g, i, hs);
        for (int j = 0; j < k; ++j) out[n++] = {int16_t(i), hs[j]};
    }
    return n;
}

bool has_hook(Game& g, int pi, uint8_t hook) {
    uint8_t hs[32];
    int k = hooks_of(g, pi, hs);
    for (int j = 0; j < k; ++j)
        if (hs[j] == hook) return true;
    return false;
}

// stack.in_turn_order: every (owner, hook), the side taking the current turn first
int in_turn_order(Game& g, OwnedHook* out) {
    int n = all_hooks(g, out);
    const State& S = *g.S;
    int current = S.to_act >= 0 ? S.to_act : (S.first_player >= 0 ? S.first_player : 0);
    int ns = g.R->nsides;
    auto rank = [&](const OwnedHook& h) {
        int side = S.pieces[h.owner].side;
        return side >= 0 ? (side - current + ns) % ns : 0;
    };
    std::stable_sort(out, out + n, [&](const OwnedHook& a, const OwnedHook& b) { return rank(a) < rank(b); });
    return n;
}
// --------------------------------------------------------------------------- world

// world.abilities_of: the card's abilities, then its status cards' (each once)
int abilities_of(Game& g, int pi, int16_t* out) {
    const Piece& p = g.S->pieces[pi];
    if (p.card < 0) return 0;
    const CardDef& card = g.R->cards[p.card];
    if (card.basic) return 0;
    int n = 0;
    for (int16_t a : card.abilities) out[n++] = a;
    for (int i = 0; i < p.nstat; ++i)
        for (int16_t a : g.R->statuses[p.statuses[i]].abilities) {
            bool seen = false;
            for (int j = 0; j < n; ++j)
                if (out[j] == a) seen = true;
            if (!seen) out[n++] = a;
        }
    return n;
}

// world.ability_cost
int ability_cost(Game& g, int ai, int target) {
    const AbilityDef& a = g.R->abilities[ai];
    int cost = a.cost;
    if (target >= 0 && !g.S->pieces[target].standing) cost += a.cost_vs_knocked_down;
    return cost;
}

// world.find_ability, by the ability id's key
int find_ability(Game& g, int pi, int key) {
    int16_t abil[64];
    int n = abilities_of(g, pi, abil);
    for (int i = 0; i < n; ++i)
        if (g.R->abilities[abil[i]].key == key) return abil[i];
    return -1;
}

// world.defense_of: what the traits in play add ("Increasing Defense")
int defense_of(Game& g, int pi) {
    const Piece& p = g.S->pieces[pi];
    int base = p.defense > 0 ? p.defense : 0;
    bool any = false;
    int add = trait_defense(g, pi, any);
    return any ? base + add : base;
}

Bits adjacent_set(Game& g, int pi) {
    const Piece& p = g.S->pieces[pi];
    return p.square >= 0 ? g.B().adjacent_bits[p.square] : Bits();
}

// world.reach_set: adjacent, or seen within a trait's reach (purpose 0: assist, 1: interact)
Bits reach_set(Game& g, int pi, int purpose) {
    Bits squares = adjacent_set(g, pi);
    const Piece& p = g.S->pieces[pi];
    int reach = p.square >= 0 ? trait_reach(g, pi, purpose) : 1;
    if (reach > 1) {
        const Board& b = g.B();
        Bits seen = visible_squares(b, p.square, sight_blockers(g, pi));
        seen.each([&](int sq) {
            if (b.distance(p.square, sq) <= reach) squares.set(sq);
        });
    }
    return squares;
}

// world.tokens_of
int tokens_of(Game& g, int side, int role, int* out) {
    int n = 0;
    for (int i = 0; i < g.S->npieces; ++i) {
        const Piece& p = g.S->pieces[i];
        if (p.role == role && p.side == side && (p.kind == K_TOKEN || p.kind == K_MINION)) out[n++] = i;
    }
    return n;
}

// world.move_links: tokens a trait links as adjacent
bool move_links(Game& g, int pi, Links& links) { return trait_links(g, pi, links); }

// world.move_options: where a move of up to n can end, its own square included, sorted
Bits move_options(Game& g, int pi, int n) {
    const Piece& p = g.S->pieces[pi];
    if (p.square < 0) return Bits();
    Links links;
    bool linked = move_links(g, pi, links);
    Bits found = move_destinations(g, pi, n, linked ? &links : nullptr);
    found.set(p.square);
    return found;
}

// world.knocked_down_allies_in
int knocked_down_allies_in(Game& g, int pi, const Bits& squares, int* out) {
    int n = 0;
    const Piece& me = g.S->pieces[pi];
    for (int i = 0; i < g.S->npieces; ++i) {
        const Piece& p = g.S->pieces[i];
        if (p.square < 0 || i == pi || p.side != me.side || !knockable_kind(p.kind) || p.standing) continue;
        if (squares.test(p.square)) out[n++] = i;
    }
    return n;
}

// world.arrival_squares: an empty square of the starting area, else the nearest empty ones
int arrival_squares(Game& g, int side, int* out) {
    const std::vector<int16_t>& area = g.R->start_area[side];
    int n = 0;
    for (int16_t sq : area)
        if (placeable(g, sq)) out[n++] = sq;
    if (n) return n;
    const Board& b = g.B();
    int cand[MAX_SQUARES];
    int nc = 0;
    for (int sq = 0; sq < b.n; ++sq)
        if (placeable(g, sq)) cand[nc++] = sq;
    if (!nc || area.empty()) {
        std::memcpy(out, cand, sizeof(int) * nc);
        return nc;
    }
    auto near = [&](int sq) {
        int best = 1 << 20;
        for (int16_t a : area) best = std::min(best, b.distance(sq, a));
        return best;
    };
    int nearest = 1 << 20;
    for (int i = 0; i < nc; ++i) nearest = std::min(nearest, near(cand[i]));
    for (int i = 0; i < nc; ++i)
        if (near(cand[i]) == nearest) out[n++] = cand[i];
    return n;
}

void put_on_map(Piece& p, int square) {
    p.square = int16_t(square);
    p.standing = true;
    p.placed = true;
}

}  // namespace fk
