// The target pre-check of a challenge action (vocabulary.possible_target and each word's reach).
#include "rules.hpp"

namespace fk {

// --------------------------------------------------------------------------- the pre-check

// vocabulary._play_out: each option of the step played on a copy of the game, the steps
// after it checked from there
bool play_out(Game& g, int pi, int step, const Bits& squares, int seq, int rest) {
    bool found = false;
    State game;
    State trial;
    Events scratch;
    squares.each([&](int square) {
        if (found) return;
        game.copy_from(*g.S);
        Game gg{g.R, &game, &scratch};
        Piece& me = game.pieces[pi];
        me.square = int16_t(square);
        Frame& sf = game.push(F_STEPS);
        sf.piece = int16_t(pi);
        sf.source = -1;
        sf.seq = int16_t(seq);
        sf.pc = uint8_t(rest - 1 + 1);
        sf.started_standing = me.standing;
        Frame cf;
        cf.type = F_CHOICE;
        cf.side = me.side;
        cf.step = int16_t(step);
        cf.piece = int16_t(pi);
        Codes options;
        op_options(gg, cf, options);
        for (int32_t option : options) {
            trial.copy_from(game);
            Game tg{g.R, &trial, &scratch};
            op_apply(tg, cf, pi, option);
            scratch.clear();
            if (possible_target_from(tg, pi, seq, rest)) {
                found = true;
                return;
            }
        }
    });
    return found;
}

bool rest_from(Game& g, int pi, const Bits& squares, int seq, int rest) {
    bool found = false;
    squares.each([&](int sq) {
        if (found) return;
        AtSquare at(g, pi, sq);
        found = possible_target_from(g, pi, seq, rest);
    });
    return found;
}

// vocabulary._with_tokens_on: the steps after it checked with a token of the kind on each
// square a placement could choose, beside those already on the map
bool with_tokens_on(Game& g, int pi, int model, const Codes& options, int seq, int rest) {
    Bits targets;
    for (int32_t o : options)
        if (code_kind(o) == C_PLACE_TOKEN) targets.set(code_b(o));
    State& S = *g.S;
    int was = S.npieces;
    Piece copy = S.pieces[model];
    targets.each([&](int sq) {
        if (S.npieces >= MAX_PIECES) throw std::runtime_error("too many trial tokens");
        Piece& extra = S.pieces[S.npieces++];
        extra = copy;
        extra.id = -1;
        extra.square = int16_t(sq);
        extra.owner = S.pieces[pi].id;
    });
    bool found = possible_target_from(g, pi, seq, rest);
    S.npieces = was;
    return found;
}

// vocabulary._token_reach: lower bound with the token left where it is,
// upper bound with a token on every square it could go, and only between them each
// placement tried on the game itself and taken back
bool token_reach(Game& g, int pi, const StepDef& s, int step, const Bits& squares, int seq, int rest) {
    State& S = *g.S;
    int side = S.pieces[pi].side;
    int toks[MAX_PIECES];
    int nt = tokens_of(g, side, s.token_role, toks);
    bool any_free = false;
    for (int t = 0; t < nt; ++t)
        if (S.pieces[toks[t]].square < 0) any_free = true;
    if (any_free) {
        if (rest_from(g, pi, squares, seq, rest)) return true;
    } else {
        for (int t = 0; t < nt; ++t) {
            Piece& tk = S.pieces[toks[t]];
            int16_t was = tk.square;
            tk.square = -1;
            bool found = rest_from(g, pi, squares, seq, rest);
            tk.square = was;
            if (found) return true;
        }
    }
    Piece& me = S.pieces[pi];
    int16_t was = me.square;
    bool found = false;
    squares.each([&](int square) {
        if (found) return;
        me.square = int16_t(square);
        Codes options;
        token_options(g, pi, s, options);
        if (options.empty() || !with_tokens_on(g, pi, toks[0], options, seq, rest)) return;
        // grouped by square, in the order the options name them
        std::vector<int> order;
        for (int32_t o : options) {
            int sq = code_b(o);
            if (std::find(order.begin(), order.end(), sq) == order.end()) order.push_back(sq);
        }
        for (int sq : order) {
            Codes there;
            for (int32_t o : options)
                if (code_b(o) == sq) there.push_back(o);
            if (there.size() > 1 && !with_tokens_on(g, pi, toks[0], there, seq, rest)) continue;
            for (int32_t o : there) {
                Piece& tk = S.pieces[code_a(o)];
                int16_t bsq = tk.square, bown = tk.owner;
                tk.square = int16_t(code_b(o));
                tk.owner = me.id;
                bool hit = possible_target_from(g, pi, seq, rest);
                tk.square = bsq;
                tk.owner = bown;
                if (hit) {
                    found = true;
                    return;
                }
            }
        }
    });
    me.square = was;
    (void)step;
    return found;
}

// One step's part of the pre-check; `next` gets the squares after a move
Reach step_reach(Game& g, int pi, int step, Bits& squares, int seq, int rest) {
    const StepDef& s = step_of(g, step);
    State& S = *g.S;
    switch (s.op) {
        case OP_MOVE: {  // vocabulary._move_reach
            Bits reached;
            int n = s.get(s.squares, 0);
            squares.each([&](int sq) {
                AtSquare at(g, pi, sq);
                reached |= move_options(g, pi, n);
            });
            squares = reached;
            return REACH_SQUARES;
        }
        case OP_CHALLENGE: {  // vocabulary._challenge_reach
            int range = s.range == NIL16 ? -1 : s.range;
            if (range < 0 && squares.count() > 1) {
                Bits rivals;
                const Piece& me = S.pieces[pi];
                for (int i = 0; i < S.npieces; ++i) {
                    const Piece& p = S.pieces[i];
                    if (p.square >= 0 && p.side != me.side && i != pi && challengeable(p)) rivals.set(p.square);
                }
                bool hit = false;
                squares.each([&](int sq) {
                    if (g.B().adjacent_bits[sq].intersects(rivals)) hit = true;
                });
                return hit ? REACH_TRUE : REACH_FALSE;
            }
            bool hit = false;
            squares.each([&](int sq) {
                if (hit) return;
                AtSquare at(g, pi, sq);
                hit = has_challenge_target(g, pi, range);
            });
            return hit ? REACH_TRUE : REACH_FALSE;
        }
        case OP_CHALLENGE_EACH: {  // vocabulary._each_within_reach
            int within = s.get(s.within, 1);
            bool hit = false;
            int buf[MAX_PIECES];
            squares.each([&](int sq) {
                if (hit) return;
                AtSquare at(g, pi, sq);
                hit = each_within(g, pi, within, buf) > 0;
            });
            return hit ? REACH_TRUE : REACH_FALSE;
        }
        case OP_PUSH_ADJACENT_RIVAL:
        case OP_CHOOSE_ADJACENT_CHARACTER:
        case OP_PLACE_MINION:
            return play_out(g, pi, step, squares, seq, rest) ? REACH_TRUE : REACH_FALSE;
        case OP_PULL_RIVAL_SEEN: {  // vocabulary._pull_seen_reach
            const Piece& me = S.pieces[pi];
            if (has_challenge_target(g, pi, -1)) return REACH_TRUE;
            const Bits& near = g.B().adjacent_bits[me.square];
            Codes options;
            pull_seen_options(g, pi, s.get(s.squares, 1), options);
            for (int32_t o : options)
                if (near.test(code_b(o))) return REACH_TRUE;
            return REACH_FALSE;
        }
        case OP_PLACE_SELF_ADJACENT_TO_RIVAL: {  // vocabulary._place_self_reach
            bool hit = false;
            squares.each([&](int sq) {
                if (hit) return;
                AtSquare at(g, pi, sq);
                Codes options;
                place_self_options(g, pi, s.get(s.within, 1), options);
                hit = !options.empty();
            });
            return hit ? REACH_TRUE : REACH_FALSE;
        }
        case OP_PLACE_TOKEN:
            return token_reach(g, pi, s, step, squares, seq, rest) ? REACH_TRUE : REACH_FALSE;
        case OP_MINION_CHALLENGE: {
            Codes options;
            minion_challenges(g, S.pieces[pi].side, options);
            return options.empty() ? REACH_FALSE : REACH_TRUE;
        }
        default:
            return REACH_NONE;
    }
}

// vocabulary.possible_target over the steps seq[from:]: "If there is no possible target,
// you cannot do a challenge action."
bool possible_target_from(Game& g, int pi, int seq, int from) {
    const Piece& me = g.S->pieces[pi];
    if (me.square < 0) return false;
    Bits squares;
    squares.set(me.square);
    const auto& steps = g.R->seqs[seq];
    for (int i = from; i < int(steps.size()); ++i) {
        Reach r = step_reach(g, pi, steps[i], squares, seq, i + 1);
        if (r == REACH_TRUE) return true;
        if (r == REACH_FALSE) return false;
    }
    return false;
}

}  // namespace fk
