// The words of the effects vocabulary: moving, interacting, pushing, placing, status cards (funkoverse.rules.vocabulary).
#include "rules.hpp"

namespace fk {

// --------------------------------------------------------------------------- the vocabulary

// vocabulary.move_piece
void move_piece(Game& g, int pi, int square) {
    Piece& p = g.S->pieces[pi];
    Event e = ev(E_MOVED);
    e.piece = p.id;
    e.origin = sq_or_none(p.square);
    e.square = int16_t(square);
    emit(g, e);
    p.square = int16_t(square);
}

// vocabulary.assist: "Stand up an adjacent ally who has been knocked down."
void assist(Game& g, int pi, int ally) {
    Event e = ev(E_ASSISTED);
    e.piece = g.S->pieces[pi].id;
    e.other = g.S->pieces[ally].id;
    emit(g, e);
    stand_up(g, ally, g.R->str_misc[S_ASSIST]);
}

// vocabulary.interact_targets: the scenario's things and what traits offer (rivals' tokens to discard)
void interact_targets(Game& g, int pi, bool only_point, Codes& out) {
    const Piece& p = g.S->pieces[pi];
    if (p.square < 0) return;
    Bits squares = reach_set(g, pi, 1);
    size_t start = out.size();
    scenario_interactions(g, pi, squares, out);
    if (!only_point) {
        trait_interactions(g, pi, squares, out);
    } else {
        size_t w = start;
        for (size_t r = start; r < out.size(); ++r)
            if (code_kind(out[r]) == C_INTERACT && g.S->pieces[code_a(out[r])].role == R_POINT) out[w++] = out[r];
        out.resize(w);
    }
}

bool is_point_marker_choice(Game& g, int32_t c) {
    return code_kind(c) == C_INTERACT && g.S->pieces[code_a(c)].role == R_POINT;
}

// vocabulary.interact: the scenario or the trait that offered it says what happens
void interact(Game& g, int pi, int32_t c) {
    if (scenario_interact(g, pi, c)) {
        if (is_point_marker_choice(g, c)) react(g, W_INTERACTED_POINT_MARKER, pi);
        return;
    }
    trait_interact(g, pi, c);
}

// Each rival within `within` not yet challenged (challenge_each)
int each_within(Game& g, int pi, int within, int* out) {
    const Piece& me = g.S->pieces[pi];
    if (me.square < 0) return 0;
    int n = 0;
    for (int i = 0; i < g.S->npieces; ++i) {
        const Piece& p = g.S->pieces[i];
        if (p.square < 0 || p.side == me.side || !rival_kind(p.kind)) continue;
        if (in_targets_so_far(g, p.id)) continue;
        if (g.B().distance(me.square, p.square) <= within) out[n++] = i;
    }
    return n;
}

// vocabulary.challenge_candidates
int challenge_candidates(Game& g, const Frame& cf, int* out) {
    const StepDef& s = step_of(g, cf.step);
    int n = challenge_targets(g, cf.piece, s.range == NIL16 ? -1 : s.range, out);
    if (s.target == 1) {
        int w = 0;
        for (int i = 0; i < n; ++i)
            if (!in_targets_so_far(g, g.S->pieces[out[i]].id)) out[w++] = out[i];
        n = w;
    }
    return n;
}

int adjacent_rivals(Game& g, int pi, int* out) {
    Bits squares = adjacent_set(g, pi);
    int n = 0;
    for (int i = 0; i < g.S->npieces; ++i) {
        const Piece& p = g.S->pieces[i];
        if (p.square >= 0 && is_rival(*g.S, i, pi) && squares.test(p.square)) out[n++] = i;
    }
    return n;
}

void push_options_for(Game& g, int pi, int target, int n, Codes& out) {
    Bits dests = push_destinations(g, target, g.S->pieces[pi].square, n);
    dests.set(g.S->pieces[target].square);
    dests.each([&](int sq) { out.push_back(code(C_PUSH, target, sq)); });
}

void pull_seen_options(Game& g, int pi, int n, Codes& out) {
    for (int i = 0; i < g.S->npieces; ++i) {
        const Piece& t = g.S->pieces[i];
        if (t.square < 0 || !is_rival(*g.S, i, pi)) continue;
        if (!can_see_piece(g, pi, i)) continue;
        Bits dests = pull_destinations(g, i, pi, n);
        dests.set(t.square);
        dests.each([&](int sq) { out.push_back(code(C_PULL, i, sq)); });
    }
}

void place_self_options(Game& g, int pi, int within, Codes& out) {
    const Piece& me = g.S->pieces[pi];
    if (me.square < 0) return;
    const Board& b = g.B();
    for (int i = 0; i < g.S->npieces; ++i) {
        const Piece& t = g.S->pieces[i];
        if (t.square < 0 || !is_rival(*g.S, i, pi)) continue;
        if (b.distance(me.square, t.square) > within) continue;
        if (!can_see_piece(g, pi, i)) continue;
        for (int16_t sq : b.adjacent[t.square])
            if (sq == me.square || placeable(g, sq)) out.push_back(code(C_PLACE, i, sq));
    }
}

// vocabulary.token_place_options: a free token, or, when all are in play, one moved
void token_place_options(Game& g, int pi, int role, const int* squares, int nsq, Codes& out) {
    int toks[MAX_PIECES];
    int nt = tokens_of(g, g.S->pieces[pi].side, role, toks);
    for (int t = 0; t < nt; ++t)
        if (g.S->pieces[toks[t]].square < 0) {
            for (int i = 0; i < nsq; ++i) out.push_back(code(C_PLACE_TOKEN, toks[t], squares[i]));
            return;
        }
    for (int t = 0; t < nt; ++t)
        for (int i = 0; i < nsq; ++i)
            if (squares[i] != g.S->pieces[toks[t]].square) out.push_back(code(C_PLACE_TOKEN, toks[t], squares[i]));
}

void token_options(Game& g, int pi, const StepDef& s, Codes& out) {
    const Piece& me = g.S->pieces[pi];
    if (me.square < 0) return;
    int within = s.get(s.within, 0);
    const Board& b = g.B();
    int squares[MAX_SQUARES];
    int n = 0;
    for (int sq = 0; sq < b.n; ++sq)
        if (b.distance(me.square, sq) <= within && !b.blocked.test(sq)) squares[n++] = sq;
    token_place_options(g, pi, s.token_role, squares, n, out);
}

// vocabulary.place_token: credited to `pi`
void place_token(Game& g, int pi, int32_t c) {
    Piece& token = g.S->pieces[code_a(c)];
    token.square = int16_t(code_b(c));
    token.owner = g.S->pieces[pi].id;
    Event e = ev(E_TOKEN_PLACED);
    e.piece = g.S->pieces[pi].id;
    e.other = token.id;
    e.name = g.R->role_name[token.role];
    e.square = token.square;
    emit(g, e);
}

void minion_challenges(Game& g, int side, Codes& out) {
    int toks[MAX_PIECES];
    int nt = tokens_of(g, side, R_MINION, toks);
    int targets[MAX_PIECES];
    for (int t = 0; t < nt; ++t) {
        if (g.S->pieces[toks[t]].square < 0) continue;
        int n = challenge_targets(g, toks[t], -1, targets);
        for (int i = 0; i < n; ++i) out.push_back(code(C_MINION_CHALLENGE, toks[t], targets[i]));
    }
}

// vocabulary.status_in_play: one of `side`'s characters has the card
bool status_in_play(Game& g, int card, int side) {
    for (int i = 0; i < g.S->npieces; ++i) {
        const Piece& p = g.S->pieces[i];
        if (p.side == side && p.has_status(card)) return true;
    }
    return false;
}

int free_statuses(Game& g, int group, int side, int* out) {
    int n = 0;
    for (size_t i = 0; i < g.R->statuses.size(); ++i)
        if (g.R->statuses[i].group == group && !status_in_play(g, int(i), side)) out[n++] = int(i);
    return n;
}

// vocabulary.give_status, then the traits that listen for it
void give_status(Game& g, int pi, int card) {
    Piece& p = g.S->pieces[pi];
    if (p.nstat >= STATUS_CAP) throw std::runtime_error("too many status cards");
    p.statuses[p.nstat++] = int16_t(card);
    Event e = ev(E_STATUS_GIVEN);
    e.piece = p.id;
    e.card = g.R->statuses[card].id;
    e.name = g.R->statuses[card].name;
    emit(g, e);
    status_given(g, pi, card);
}

void token_off_options(Game& g, int side, Codes& out) {
    const SideState& s = g.S->sides[side];
    for (int k = 0; k < TRACK; ++k)
        for (int i = 0; i < s.nslot[k]; ++i) {
            const TrackItemDef& t = g.R->track_items[s.slot[k][i]];
            if (t.kind != T_TOKEN) continue;
            int32_t c = code(C_SHIFT_OFF, t.color, k + 1);
            if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
        }
}

void token_off(Game& g, int side, int32_t c) {
    int color = code_a(c), at = code_b(c);
    int item = g.R->token_item[color];
    g.S->sides[side].slot_remove(at - 1, item);
    std::vector<int16_t> back;
    returned(g, side, item, back);
}

void shift_down_options(Game& g, int pi, const StepDef& s, Codes& out) {
    const SideState& side = g.S->sides[g.S->pieces[pi].side];
    for (int k = 0; k < TRACK; ++k)
        for (int i = 0; i < side.nslot[k]; ++i) {
            int item = side.slot[k][i];
            if (!(s.kinds & (1u << g.R->track_items[item].kind))) continue;
            int32_t c = code(C_SHIFT_DOWN, item, k + 1);
            if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
        }
}

}  // namespace fk
