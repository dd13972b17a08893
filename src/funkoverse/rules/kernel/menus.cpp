// The legal choices, and one choice's legality (funkoverse.rules.menus, setup_phase).
#include "rules.hpp"

namespace fk {

// --------------------------------------------------------------------------- setup decisions

// setup_phase.secret_options: Leaders, the side to choose picks one of its characters
void secret_options(Game& g, Codes& out) {
    int side = g.S->to_act;
    if (side < 0 || g.S->sides[side].leader >= 0) return;
    int buf[MAX_PIECES];
    int n = characters(g, side, buf);
    for (int i = 0; i < n; ++i) out.push_back(code(C_LEADER, buf[i]));
}

// menus.place_options
void place_options(Game& g, Codes& out) {
    State& S = *g.S;
    int side = S.to_act;
    int waiting[MAX_PIECES];
    int nw = 0;
    for (int i = 0; i < S.npieces; ++i) {
        const Piece& p = S.pieces[i];
        if (p.side == side && !p.placed && (character_kind(p.kind) || p.kind == K_COMPANION)) waiting[nw++] = i;
    }
    if (!nw) {
        int giver = seat_before(g, side);
        for (int i = 0; i < S.npieces; ++i) {
            const Piece& p = S.pieces[i];
            if (p.kind == K_BONUS_OBJECTIVE && p.side == giver && !p.placed) waiting[nw++] = i;
        }
    }
    if (!nw) return;
    int squares[MAX_SQUARES];
    int nsq = arrival_squares(g, side, squares);
    for (int w = 0; w < nw; ++w) {
        const Piece& p = S.pieces[waiting[w]];
        // Leaders: the leader starts on its leader starting square
        if (g.R->scenario.leaders && p.side >= 0 && S.sides[p.side].leader == p.id &&
            g.R->leader_square[p.side] >= 0) {
            out.push_back(code(C_PLACE, waiting[w], g.R->leader_square[p.side]));
            continue;
        }
        for (int i = 0; i < nsq; ++i) out.push_back(code(C_PLACE, waiting[w], squares[i]));
    }
}

// menus.return_options
void return_options(Game& g, const Frame& f, Codes& out) {
    int squares[MAX_SQUARES];
    int nsq = arrival_squares(g, f.side, squares);
    for (int k = 0; k < f.npieces; ++k)
        for (int i = 0; i < nsq; ++i) out.push_back(code(C_RETURN, f.pieces[k], squares[i]));
}
// --------------------------------------------------------------------------- the action menu

// menus.companions_of
int companions_of(Game& g, int pi, int* out) {
    int n = 0;
    int16_t id = g.S->pieces[pi].id;
    for (int i = 0; i < g.S->npieces; ++i) {
        const Piece& p = g.S->pieces[i];
        if (p.kind == K_COMPANION && p.owner == id) out[n++] = i;
    }
    return n;
}

// menus.companion_options; `free_only`: menus.free_companion_options
void companion_options(Game& g, int pi, Codes& out, bool free_only) {
    int comps[MAX_PIECES];
    int n = companions_of(g, pi, comps);
    for (int k = 0; k < n; ++k) {
        const Piece& comp = g.S->pieces[comps[k]];
        int cdef = comp.ref >= 0 ? g.R->companion_of_string[comp.ref] : -1;
        if (cdef < 0 || comp.square < 0) continue;
        for (int16_t a : g.R->companions[cdef].actions) {
            const ItemDef& action = g.R->actions[a];
            if (action.challenge_action && !possible_target(g, comps[k], action.seq, 0)) continue;
            if (g.S->companion_used != pi) out.push_back(code(C_COMPANION_ACTION, action.key, 1));
            if (!free_only) out.push_back(code(C_COMPANION_ACTION, action.key, 0));
        }
    }
}

// menus.first_challenge_targets
int first_challenge_targets(Game& g, int pi, const AbilityDef& a, int* out) {
    for (int16_t st : g.R->seqs[a.seq]) {
        const StepDef& s = step_of(g, st);
        if (s.op == OP_CHALLENGE) return challenge_targets(g, pi, s.range == NIL16 ? -1 : s.range, out);
    }
    return 0;
}

// menus.ability_options
void ability_options(Game& g, int pi, Codes& out) {
    const Piece& p = g.S->pieces[pi];
    if (p.card < 0 || g.R->cards[p.card].basic) return;
    const SideState& side = g.S->sides[p.side];
    int16_t abil[64];
    int n = abilities_of(g, pi, abil);
    for (int i = 0; i < n; ++i) {
        const AbilityDef& a = g.R->abilities[abil[i]];
        if (p.square < 0 && !a.while_knocked_out) continue;
        if (p.square >= 0 && !p.standing && !a.while_knocked_down) continue;
        if (a.declare_target) {
            int targets[MAX_PIECES];
            int nt = first_challenge_targets(g, pi, a, targets);
            for (int t = 0; t < nt; ++t) {
                int cost = ability_cost(g, abil[i], targets[t]);
                if (cost < 1 || side.pool[a.color] > 0) out.push_back(code(C_USE_ABILITY, a.key, targets[t] + 1));
            }
            continue;
        }
        int cost = ability_cost(g, abil[i], -1);
        if (cost >= 1 && side.pool[a.color] <= 0) continue;
        if (a.challenge_action && !possible_target(g, pi, a.seq, 0)) continue;
        out.push_back(code(C_USE_ABILITY, a.key));
    }
}

// menus.ready_items + item_options
void item_options(Game& g, int pi, Codes& out) {
    const Piece& p = g.S->pieces[pi];
    for (int k = 0; k < p.nitems; ++k) {
        const ItemDef& item = g.R->items[p.items[k]];
        if (item.cost == 0 && !item.basic_action) continue;
        if (track_position(g, p.side, g.R->item_track_item[p.items[k]])) continue;
        if (item.challenge_action && !possible_target(g, pi, item.seq, 0)) continue;
        out.push_back(code(C_USE_ITEM, item.key));
    }
}

// menus.action_menu: Taking a Turn, steps 2-3
void action_menu(Game& g, Codes& out) {
    State& S = *g.S;
    int pi = S.active;
    if (S.actions_left <= 0) {
        // "before, between, or after the character's two actions": the companion's
        // additional action is still there once both are done (or rallied)
        companion_options(g, pi, out, true);
        out.push_back(code(C_END));
        return;
    }
    const Piece& p = S.pieces[pi];
    companion_options(g, pi, out);
    if (p.square < 0) {
        ability_options(g, pi, out);
    } else if (!p.standing) {
        if (S.actions_left >= RALLY_ACTIONS) out.push_back(code(C_RALLY));
        ability_options(g, pi, out);
    } else {
        Bits moves = move_options(g, pi, BASIC_MOVE);
        moves.each([&](int sq) { out.push_back(code(C_MOVE, sq)); });
        int buf[MAX_PIECES];
        int n = challenge_targets(g, pi, -1, buf);
        for (int i = 0; i < n; ++i) out.push_back(code(C_CHALLENGE, buf[i]));
        n = knocked_down_allies_in(g, pi, reach_set(g, pi, 0), buf);
        for (int i = 0; i < n; ++i) out.push_back(code(C_ASSIST, buf[i]));
        interact_targets(g, pi, false, out);
        item_options(g, pi, out);
        ability_options(g, pi, out);
    }
    out.push_back(code(C_END));
}
// --------------------------------------------------------------------------- questions

int decider(const Rules& R, const State& S) {
    if (S.phase == P_OVER) return -2;
    if (S.nstack) {
        const Frame& top = S.stack[S.nstack - 1];
        if (top.type == F_ROLL) return -1;
        if (top.type == F_CHOICE || top.type == F_RETURN) return top.side;
    }
    if (S.phase == P_FLIP) return -1;
    (void)R;
    return S.to_act;
}

// menus.legal: every legal choice at this point, in a stable order
void legal(Game& g, Codes& out) {
    State& S = *g.S;
    if (S.phase == P_OVER) return;
    if (S.nstack) {
        const Frame& top = S.stack[S.nstack - 1];
        if (top.type == F_ROLL) {
            out.push_back(code(C_ROLL_OUTCOME, 1));
            out.push_back(code(C_ROLL_OUTCOME, 0));
            return;
        }
        if (top.type == F_CHOICE) {
            Frame cf = top;
            frame_options(g, cf, out);
            return;
        }
        if (top.type == F_RETURN) {
            Frame f = top;
            return_options(g, f, out);
            return;
        }
    }
    switch (S.phase) {
        case P_FLIP:
            for (int s = 0; s < g.R->nsides; ++s) out.push_back(code(C_FIRST_PLAYER, s));
            return;
        case P_DRAFT:
            draft_options(g, out);
            return;
        case P_SECRET:
            secret_options(g, out);
            return;
        case P_PLACE:
            place_options(g, out);
            return;
        case P_CHOOSE: {
            int buf[MAX_PIECES];
            int n = characters(g, S.to_act, buf);
            for (int i = 0; i < n; ++i)
                if (!S.pieces[buf[i]].exhausted) out.push_back(code(C_CHOOSE, buf[i]));
            return;
        }
        default:
            action_menu(g, out);
    }
}

// menus.is_legal: `c` checked against its own kind, never the whole menu
bool is_legal(Game& g, int32_t c) {
    State& S = *g.S;
    if (S.phase == P_OVER) return false;
    int kind = code_kind(c);
    if (S.nstack) {
        const Frame& top = S.stack[S.nstack - 1];
        if (top.type == F_ROLL) return kind == C_ROLL_OUTCOME && code_a(c) <= 1 && code_b(c) == 0;
        if (top.type == F_CHOICE || top.type == F_RETURN) {
            Codes options;
            Frame f = top;
            if (top.type == F_CHOICE) frame_options(g, f, options);
            else return_options(g, f, options);
            return std::find(options.begin(), options.end(), c) != options.end();
        }
    }
    if (S.phase == P_CHOOSE) {
        if (kind != C_CHOOSE || code_b(c)) return false;
        int pi = code_a(c);
        if (pi >= S.npieces) return false;
        const Piece& p = S.pieces[pi];
        return p.side == S.to_act && character_kind(p.kind) && !p.exhausted;
    }
    if (S.phase != P_ACT) {
        Codes options;
        legal(g, options);
        return std::find(options.begin(), options.end(), c) != options.end();
    }
    // Taking a Turn, steps 2-3
    if (kind == C_END) return c == code(C_END);
    int pi = S.active;
    if (S.actions_left <= 0) {
        if (kind != C_COMPANION_ACTION || !code_b(c)) return false;
        Codes options;
        companion_options(g, pi, options, true);
        return std::find(options.begin(), options.end(), c) != options.end();
    }
    const Piece& p = S.pieces[pi];
    Codes options;
    switch (kind) {
        case C_COMPANION_ACTION:
            companion_options(g, pi, options);
            break;
        case C_USE_ABILITY:
            ability_options(g, pi, options);
            break;
        case C_RALLY:
            return c == code(C_RALLY) && p.square >= 0 && !p.standing && S.actions_left >= RALLY_ACTIONS;
        default:
            if (p.square < 0 || !p.standing) return false;
            switch (kind) {
                case C_MOVE: {
                    if (code_b(c) || code_a(c) >= g.B().n) return false;
                    return move_options(g, pi, BASIC_MOVE).test(code_a(c));
                }
                case C_CHALLENGE: {
                    if (code_b(c)) return false;
                    int buf[MAX_PIECES];
                    int n = challenge_targets(g, pi, -1, buf);
                    for (int i = 0; i < n; ++i)
                        if (buf[i] == code_a(c)) return true;
                    return false;
                }
                case C_ASSIST: {
                    if (code_b(c)) return false;
                    int buf[MAX_PIECES];
                    int n = knocked_down_allies_in(g, pi, reach_set(g, pi, 0), buf);
                    for (int i = 0; i < n; ++i)
                        if (buf[i] == code_a(c)) return true;
                    return false;
                }
                case C_USE_ITEM:
                    item_options(g, pi, options);
                    break;
                default:
                    interact_targets(g, pi, false, options);
            }
    }
    return std::find(options.begin(), options.end(), c) != options.end();
}

}  // namespace fk
