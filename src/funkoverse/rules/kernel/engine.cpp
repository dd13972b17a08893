// The turn and round machine and apply (funkoverse.rules.engine).
#include "rules.hpp"

namespace fk {

// --------------------------------------------------------------------------- taking a turn

// engine._set_first_player: after the flip, the draft (characters chosen in the game), the
// scenario's secret picks, then placement, each starting with the first player
void set_first_player(Game& g, int side) {
    State& S = *g.S;
    S.first_player = int8_t(side);
    S.to_act = int8_t(side);
    S.phase = g.R->has_draft ? P_DRAFT : g.R->scenario.leaders ? P_SECRET : P_PLACE;
}

// engine._choose: Taking a Turn, step 1; then what happens at the start of its turn
void choose(Game& g, int pi) {
    State& S = *g.S;
    Piece& p = S.pieces[pi];
    S.active = int16_t(pi);
    S.actions_left = ACTIONS_PER_TURN;
    S.phase = P_ACT;
    Frame& f = S.push(F_TURN_START);
    f.piece = int16_t(pi);
    if (p.side >= 0 && g.R->ultimate[p.side] && p.square < 0) {
        // Ultimate Mode: "At the start of the ultimate character's turn, if they are on the
        // cooldown track, shift them off."
        std::vector<int16_t> back;
        shift_off(g, p.side, piece_track_item(g, pi), back);
        if (!back.empty()) push_return(g, p.side, back);
        Event e = ev(E_OFF_THE_TRACK);
        e.piece = p.id;
        e.source = g.R->str_misc[S_ULTIMATE_TURN];
        e.rule = g.R->str_misc[S_ULTIMATE_RULE];
        emit(g, e);
        Event t = ev(E_TURN);
        t.piece = p.id;
        t.number = 1;
        emit(g, t);
    } else {
        Event t = ev(E_TURN);
        t.piece = p.id;
        t.number = p.square >= 0 ? 1 : 0;
        emit(g, t);
    }
}

// engine._companion_act
void companion_act(Game& g, int pi, int key) {
    int comps[MAX_PIECES];
    int n = companions_of(g, pi, comps);
    for (int k = 0; k < n; ++k) {
        const Piece& comp = g.S->pieces[comps[k]];
        int cdef = comp.ref >= 0 ? g.R->companion_of_string[comp.ref] : -1;
        if (cdef < 0) continue;
        for (int16_t a : g.R->companions[cdef].actions) {
            const ItemDef& action = g.R->actions[a];
            if (action.key != key) continue;
            Event e = ev(E_COMPANION_ACTS);
            e.piece = comp.id;
            e.name = action.name;
            emit(g, e);
            push_steps(g, comps[k], action.name, action.seq, -1, true);
            return;
        }
    }
}

// engine._pay: Doing an Ability, step 2
void pay(Game& g, int pi, int ai, int target) {
    const AbilityDef& a = g.R->abilities[ai];
    int cost = ability_cost(g, ai, target);
    Event e = ev(E_ABILITY);
    e.piece = g.S->pieces[pi].id;
    e.card = a.id;
    e.name = a.name;
    e.source = g.R->color_str[a.color];
    if (cost < 1) {
        e.number = 0;
        e.rule = g.R->str_misc[S_DECREASE_RULE];
        emit(g, e);
        return;
    }
    SideState& side = g.S->sides[g.S->pieces[pi].side];
    side.pool[a.color] -= 1;
    int slot = std::min(cost, TRACK);
    side.slot_append(slot - 1, g.R->token_item[a.color]);
    e.number = slot;
    emit(g, e);
}

// engine._end_turn: Taking a Turn, step 4
void end_turn(Game& g) {
    State& S = *g.S;
    Piece& p = S.pieces[S.active];
    p.markers += 1;
    p.exhausted = p.markers >= p.needed;
    Event e = ev(E_EXHAUSTED);
    e.piece = p.id;
    e.number = p.markers;
    e.total = p.needed;
    emit(g, e);
    S.active = -1;
    S.actions_left = 0;
    S.turns += 1;
    S.companion_used = -1;
    int ns = g.R->nsides;
    int current = S.to_act >= 0 ? S.to_act : 0;
    for (int k = 1; k <= ns; ++k) {
        int side = (current + k) % ns;
        for (int i = 0; i < S.npieces; ++i) {
            const Piece& q = S.pieces[i];
            if (q.side == side && character_kind(q.kind) && !q.exhausted) {
                S.to_act = int8_t(side);
                S.phase = P_CHOOSE;
                return;
            }
        }
    }
    // Ending a Round: "When both players have exhausted all their characters, the round ends."
    S.to_act = -1;
    S.phase = P_CHOOSE;
    Frame& f = S.push(F_ROUND_END);
    f.stage = 0;
}

// engine._apply_action
void apply_action(Game& g, int32_t c) {
    State& S = *g.S;
    int pi = S.active;
    Piece& p = S.pieces[pi];
    int kind = code_kind(c);
    if (kind == C_END) {
        end_turn(g);
        return;
    }
    if (kind == C_COMPANION_ACTION && code_b(c)) {
        S.companion_used = int16_t(pi);
        companion_act(g, pi, code_a(c));
        return;
    }
    // a trait that listens for the end of an action is one the character had when it began
    S.acting = int16_t(pi);
    S.nacting = p.nstat;
    std::memcpy(S.acting_statuses, p.statuses, sizeof(int16_t) * p.nstat);
    if (kind == C_RALLY) {
        S.actions_left -= RALLY_ACTIONS;
        Event e = ev(E_RALLIED);
        e.piece = p.id;
        emit(g, e);
        stand_up(g, pi, g.R->str_misc[S_RALLY_WHY]);
        return;
    }
    S.actions_left -= 1;
    switch (kind) {
        case C_MOVE:
            move_piece(g, pi, code_a(c));
            break;
        case C_CHALLENGE:
            declare_challenge(g, pi, code_a(c), BASIC_CHALLENGE_DICE, g.R->str_misc[S_BASIC_CHALLENGE]);
            break;
        case C_ASSIST:
            assist(g, pi, code_a(c));
            break;
        case C_INTERACT:
        case C_COMPLETE_BONUS:
        case C_PLACE_CONTROL:
        case C_FLIP_CONTROL:
            interact(g, pi, c);
            break;
        case C_USE_ABILITY: {
            int ai = find_ability(g, pi, code_a(c));
            if (ai < 0) throw std::runtime_error("no such ability");
            int target = code_b(c) - 1;
            pay(g, pi, ai, target);
            const AbilityDef& a = g.R->abilities[ai];
            push_steps(g, pi, a.name, a.seq, target >= 0 ? S.pieces[target].id : -1, p.standing);
            break;
        }
        case C_COMPANION_ACTION:
            companion_act(g, pi, code_a(c));
            break;
        case C_USE_ITEM: {
            const ItemDef& item = g.R->items[code_a(c)];
            int slot = item.cost > 0 ? std::min(item.cost, TRACK) : 0;
            if (slot) track_place(g, p.side, g.R->item_track_item[code_a(c)], slot);
            Event e = ev(E_ITEM_USED);
            e.piece = p.id;
            e.card = item.id;
            e.name = item.name;
            e.number = slot;
            emit(g, e);
            push_steps(g, pi, item.name, item.seq, -1, p.standing);
            break;
        }
        default:
            throw std::runtime_error("not an action");
    }
}
// --------------------------------------------------------------------------- ending a round

void run_round_end(Game& g) {
    State& S = *g.S;
    int order[MAX_SIDES];
    int n = order_from(g, S.first_player, order);
    Frame& top = S.stack[S.nstack - 1];
    int stage = top.stage;
    if (stage == 0) {
        top.stage = 1;
        if (g.R->scenario.flags) round_end_notes(g);
        round_end_frames(g);
    } else if (stage == 1) {
        top.stage = 2;
        std::vector<int16_t> backs[MAX_SIDES];
        for (int i = 0; i < n; ++i) cooldown(g, order[i], backs[i]);  // the first player first
        for (int i = n - 1; i >= 0; --i)
            if (!backs[i].empty()) push_return(g, order[i], backs[i]);
    } else if (stage == 2) {
        top.stage = 3;
        if (g.R->scenario.control) control_points(g);
        check_winner(g);
    } else {
        S.nstack--;
        for (int i = 0; i < S.npieces; ++i) {
            S.pieces[i].markers = 0;  // Refresh
            S.pieces[i].exhausted = false;
        }
        for (int s = 0; s < g.R->nsides; ++s) S.sides[s].nreturned = 0;
        int nxt = n > 1 ? order[1] : order[0];
        S.first_player = int8_t(nxt);
        S.to_act = int8_t(nxt);
        S.round += 1;
        S.phase = P_CHOOSE;
        Event e = ev(E_ROUND_BEGINS);
        e.number = S.round;
        e.side = side_str(g, nxt);
        emit(g, e);
    }
}

// a secret pick or a draft passes to the next seat from the first player on; false when the
// last seat has chosen (setup_phase.advance_secret, advance_draft)
bool pass_on(Game& g) {
    State& S = *g.S;
    int order[MAX_SIDES];
    int n = order_from(g, S.first_player, order);
    int side = S.to_act >= 0 ? S.to_act : order[0];
    int pos = 0;
    for (int i = 0; i < n; ++i)
        if (order[i] == side) pos = i;
    if (pos + 1 >= n) return false;
    S.to_act = int8_t(order[pos + 1]);
    return true;
}

// setup_phase.advance_secret: pass the pick on, or reveal every leader
bool advance_secret(Game& g) {
    State& S = *g.S;
    Codes options;
    secret_options(g, options);
    if (!options.empty()) return false;
    if (pass_on(g)) return true;
    int order[MAX_SIDES];
    int n = order_from(g, S.first_player, order);
    S.leaders_revealed = true;
    for (int i = 0; i < n; ++i) {
        Event e = ev(E_LEADER_REVEALED);
        e.side = side_str(g, order[i]);
        e.piece = S.sides[order[i]].leader;
        emit(g, e);
    }
    S.to_act = S.first_player;
    S.phase = P_PLACE;
    return true;
}

// engine._advance: do everything that needs no decision, until a decision (or the end)
void advance(Game& g) {
    State& S = *g.S;
    while (true) {
        if (S.winner >= 0) {
            if (S.phase != P_OVER) {
                S.phase = P_OVER;
                S.nstack = 0;
                S.active = -1;
                Event e = ev(E_WINNER);
                e.side = side_str(g, S.winner);
                e.number = S.sides[S.winner].points;
                e.total = S.round;
                if (g.R->scenario.first_knockout_wins || g.R->scenario.immediate_target)
                    e.rule = g.R->str_misc[S_FIRST_GAME_RULE];
                emit(g, e);
            }
            return;
        }
        if (S.nstack) {
            Frame& top = S.stack[S.nstack - 1];
            switch (top.type) {
                case F_STEPS:
                    run_steps(g);
                    continue;
                case F_ROUND_END:
                    run_round_end(g);
                    continue;
                case F_TURN_START: {
                    int pi = top.piece;
                    S.nstack--;
                    turn_start(g, pi);
                    continue;
                }
                case F_CHOICE: {
                    Frame cf = top;
                    Codes options;
                    frame_options(g, cf, options);
                    if (!options.empty()) return;
                    S.nstack--;
                    if (!cf.optional && cf.hook == H_NONE) abort_steps(g, -1);
                    continue;
                }
                case F_RETURN: {
                    if (top.npieces) {
                        Frame f = top;
                        Codes options;
                        return_options(g, f, options);
                        if (!options.empty()) return;
                    }
                    S.nstack--;
                    continue;
                }
                default:
                    return;  // a roll: chance decides
            }
        }
        if (S.phase == P_FLIP) return;
        if (S.phase == P_DRAFT) {
            if (advance_draft(g)) continue;
            return;
        }
        if (S.phase == P_SECRET) {
            if (advance_secret(g)) continue;
            return;
        }
        if (S.phase == P_PLACE) {
            Codes options;
            place_options(g, options);
            if (!options.empty()) return;
            int order[MAX_SIDES];
            int n = order_from(g, S.first_player, order);
            int side = S.to_act >= 0 ? S.to_act : 0;
            int pos = 0;
            for (int i = 0; i < n; ++i)
                if (order[i] == side) pos = i;
            if (pos + 1 < n) {
                S.to_act = int8_t(order[pos + 1]);
            } else {
                S.round = 1;  // engine.begin_round_one
                S.to_act = S.first_player;
                S.phase = P_CHOOSE;
            }
            continue;
        }
        if (S.phase == P_ACT) {
            if (S.acting >= 0) {  // the action and all it caused are over
                int pi = S.acting;
                int16_t had[STATUS_CAP];
                int nhad = S.nacting;
                std::memcpy(had, S.acting_statuses, sizeof(int16_t) * nhad);
                S.acting = -1;
                S.nacting = 0;
                after_action(g, pi, had, nhad);
            }
            const Piece& p = S.pieces[S.active];
            if (S.actions_left > 0 && p.standing && p.square >= 0) return;
            Codes menu;
            action_menu(g, menu);
            if (menu.size() == 1 && menu[0] == code(C_END)) {
                end_turn(g);
                continue;
            }
            return;
        }
        return;
    }
}

void scenario_knockout(Game& g, int by, int victim) { on_knockout(g, by, victim); }

// engine.apply_unchecked: do a choice taken from the legal choices
void apply_unchecked(Game& g, int32_t c) {
    State& S = *g.S;
    int kind = code_kind(c);
    Frame* top = S.top();
    if (top && top->type == F_ROLL) {
        Frame roll = *top;
        S.nstack--;
        resolve_challenge(g, roll, code_a(c) != 0);
    } else if (top && top->type == F_CHOICE) {
        Frame cf = *top;
        S.nstack--;
        apply_option(g, cf, c);
    } else if (top && top->type == F_RETURN) {
        int pi = code_a(c);
        Piece& p = S.pieces[pi];
        put_on_map(p, code_b(c));
        Event e = ev(E_RETURNED);
        e.piece = p.id;
        e.square = int16_t(code_b(c));
        emit(g, e);
        int w = 0;
        for (int k = 0; k < top->npieces; ++k)
            if (top->pieces[k] != pi) top->pieces[w++] = top->pieces[k];
        top->npieces = uint8_t(w);
        if (!w) S.nstack--;
    } else if (kind == C_FIRST_PLAYER) {
        set_first_player(g, code_a(c));
        Event e = ev(E_FIRST_PLAYER);
        e.side = side_str(g, code_a(c));
        emit(g, e);
    } else if (kind == C_PICK || kind == C_GIVE) {
        apply_draft(g, c);
    } else if (kind == C_LEADER) {
        int side = S.to_act;
        S.sides[side].leader = S.pieces[code_a(c)].id;
        Event e = ev(E_LEADER_PICKED);
        e.side = side_str(g, side);
        e.piece = S.pieces[code_a(c)].id;
        e.secret = true;
        emit(g, e);
    } else if (kind == C_PLACE) {
        Piece& p = S.pieces[code_a(c)];
        put_on_map(p, code_b(c));
        Event e = ev(E_PLACED);
        e.piece = p.id;
        e.square = int16_t(code_b(c));
        emit(g, e);
    } else if (kind == C_CHOOSE) {
        choose(g, code_a(c));
    } else {
        apply_action(g, c);
    }
    advance(g);
}

}  // namespace fk
