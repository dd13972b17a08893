// Each word's decision: its options, the option taken, what it does at once (vocabulary.Op).
#include "rules.hpp"

namespace fk {

// --------------------------------------------------------------------------- words: options and apply

// The options of a decision a vocabulary word asks (Op.options)
void op_options(Game& g, const Frame& cf, Codes& out) {
    const StepDef& s = step_of(g, cf.step);
    State& S = *g.S;
    int pi = cf.piece;
    switch (s.op) {
        case OP_MOVE: {
            Bits found = move_options(g, pi, s.get(s.squares, 0));
            found.each([&](int sq) { out.push_back(code(C_MOVE, sq)); });
            break;
        }
        case OP_CHALLENGE: {
            int buf[MAX_PIECES];
            int n = challenge_candidates(g, cf, buf);
            for (int i = 0; i < n; ++i) out.push_back(code(C_TARGET, buf[i]));
            break;
        }
        case OP_CHALLENGE_EACH: {
            int buf[MAX_PIECES];
            int n = each_within(g, pi, s.get(s.within, 1), buf);
            for (int i = 0; i < n; ++i) out.push_back(code(C_TARGET, buf[i]));
            break;
        }
        case OP_ASSIST: {
            int buf[MAX_PIECES];
            int n = knocked_down_allies_in(g, pi, reach_set(g, pi, 0), buf);
            for (int i = 0; i < n; ++i) out.push_back(code(C_ASSIST, buf[i]));
            break;
        }
        case OP_INTERACT:
            interact_targets(g, pi, s.only_point_marker, out);
            break;
        case OP_PUSH_ADJACENT_RIVAL: {
            int buf[MAX_PIECES];
            int n = adjacent_rivals(g, pi, buf);
            for (int i = 0; i < n; ++i) push_options_for(g, pi, buf[i], s.get(s.squares, 1), out);
            break;
        }
        case OP_PUSH_EACH_ADJACENT_RIVAL: {
            int buf[MAX_PIECES];
            int n = adjacent_rivals(g, pi, buf);
            for (int i = 0; i < n; ++i)
                if (!in_targets_so_far(g, S.pieces[buf[i]].id)) push_options_for(g, pi, buf[i], s.get(s.squares, 1), out);
            break;
        }
        case OP_PULL_RIVAL_SEEN:
            pull_seen_options(g, pi, s.get(s.squares, 1), out);
            break;
        case OP_PULL_TARGET: {
            Frame* f = nearest_steps(g);
            int target = f ? piece_of(g, f->target) : -1;
            if (target < 0 || S.pieces[target].square < 0 || S.pieces[pi].square < 0) break;
            Bits dests = pull_destinations(g, target, pi, s.get(s.squares, 1));
            dests.set(S.pieces[target].square);
            dests.each([&](int sq) { out.push_back(code(C_PULL, target, sq)); });
            break;
        }
        case OP_PLACE_SELF_ADJACENT_TO_RIVAL:
            place_self_options(g, pi, s.get(s.within, 1), out);
            break;
        case OP_CHOOSE_ADJACENT_CHARACTER: {
            Bits squares = adjacent_set(g, pi);
            for (int i = 0; i < S.npieces; ++i) {
                const Piece& p = S.pieces[i];
                if (p.square >= 0 && i != pi && knockable_kind(p.kind) && squares.test(p.square))
                    out.push_back(code(C_CARRY, i));
            }
            break;
        }
        case OP_PLACE_CHOSEN_ADJACENT: {
            Frame* f = nearest_steps(g);
            int chosen = f ? piece_of(g, f->chosen) : -1;
            if (chosen < 0 || S.pieces[chosen].square < 0 || S.pieces[pi].square < 0) break;
            Bits squares = adjacent_set(g, pi);
            squares.each([&](int sq) {
                if (placeable(g, sq, chosen)) out.push_back(code(C_PUT, sq));
            });
            break;
        }
        case OP_PLACE_TOKEN:
            token_options(g, pi, s, out);
            break;
        case OP_PLACE_MINION: {
            const Piece& me = S.pieces[pi];
            if (me.square < 0) break;
            int squares[MAX_SQUARES];
            int n = 0;
            g.B().adjacent_bits[me.square].each([&](int sq) {
                if (placeable(g, sq)) squares[n++] = sq;
            });
            token_place_options(g, pi, R_MINION, squares, n, out);
            break;
        }
        case OP_MINION_CHALLENGE:
            minion_challenges(g, S.pieces[pi].side, out);
            break;
        case OP_STATUS: {
            int buf[64];
            int n = free_statuses(g, s.group, S.pieces[pi].side, buf);
            for (int i = 0; i < n; ++i) out.push_back(code(C_GIVE_STATUS, buf[i]));
            break;
        }
        case OP_SHIFT_DOWN:
            shift_down_options(g, pi, s, out);
            break;
        case OP_SHIFT_OFF_TOKEN:
            token_off_options(g, S.pieces[pi].side, out);
            break;
        default:
            break;
    }
}

// The option taken at a decision a vocabulary word asked (Op.apply)
void op_apply(Game& g, const Frame& cf, int pi, int32_t c) {
    const StepDef& s = step_of(g, cf.step);
    State& S = *g.S;
    switch (s.op) {
        case OP_MOVE:
            move_piece(g, pi, code_a(c));
            break;
        case OP_CHALLENGE:
        case OP_CHALLENGE_EACH: {
            int target = code_a(c);
            int dice = attack_dice(g, target, s);
            declare_challenge(g, pi, target, dice, current_source(g));
            break;
        }
        case OP_ASSIST:
            assist(g, pi, code_a(c));
            break;
        case OP_INTERACT:
            interact(g, pi, c);
            break;
        case OP_PUSH_ADJACENT_RIVAL:
        case OP_PUSH_EACH_ADJACENT_RIVAL: {
            Piece& target = S.pieces[code_a(c)];
            int16_t origin = sq_or_none(target.square);
            target.square = int16_t(code_b(c));
            Frame* f = nearest_steps(g);
            if (f) {
                add_target(f, target.id);
                f->target = target.id;
            }
            Event e = ev(E_PUSHED);
            e.piece = S.pieces[pi].id;
            e.other = target.id;
            e.origin = origin;
            e.square = target.square;
            emit(g, e);
            break;
        }
        case OP_PULL_RIVAL_SEEN:
        case OP_PULL_TARGET: {
            Piece& target = S.pieces[code_a(c)];
            int16_t origin = sq_or_none(target.square);
            target.square = int16_t(code_b(c));
            Frame* f = nearest_steps(g);
            if (f) f->target = target.id;
            Event e = ev(E_PULLED);
            e.piece = S.pieces[pi].id;
            e.other = target.id;
            e.origin = origin;
            e.square = target.square;
            emit(g, e);
            break;
        }
        case OP_PLACE_SELF_ADJACENT_TO_RIVAL: {
            Piece& me = S.pieces[pi];
            me.square = int16_t(code_b(c));
            Frame* f = nearest_steps(g);
            if (f) f->target = S.pieces[code_a(c)].id;
            Event e = ev(E_PLACED_BESIDE);
            e.piece = me.id;
            e.other = S.pieces[code_a(c)].id;
            e.square = me.square;
            emit(g, e);
            break;
        }
        case OP_CHOOSE_ADJACENT_CHARACTER: {
            Frame* f = nearest_steps(g);
            if (f) f->chosen = S.pieces[code_a(c)].id;
            Event e = ev(E_CARRY_CHOSEN);
            e.piece = S.pieces[pi].id;
            e.other = S.pieces[code_a(c)].id;
            emit(g, e);
            break;
        }
        case OP_PLACE_CHOSEN_ADJACENT: {
            Frame* f = nearest_steps(g);
            int chosen = f ? piece_of(g, f->chosen) : -1;
            if (chosen < 0) throw std::runtime_error("nothing chosen to place");
            S.pieces[chosen].square = int16_t(code_a(c));
            Event e = ev(E_CARRIED);
            e.piece = S.pieces[pi].id;
            e.other = S.pieces[chosen].id;
            e.square = int16_t(code_a(c));
            emit(g, e);
            break;
        }
        case OP_PLACE_TOKEN:
        case OP_PLACE_MINION:
            place_token(g, pi, c);
            break;
        case OP_MINION_CHALLENGE:
            declare_challenge(g, code_a(c), code_b(c), BASIC_CHALLENGE_DICE, g.R->str_misc[S_MINION_TOKEN]);
            break;
        case OP_STATUS:
            give_status(g, pi, code_a(c));
            break;
        case OP_SHIFT_DOWN: {
            std::vector<int16_t> back;
            int side = S.pieces[pi].side;
            shift_down(g, side, code_a(c), s.get(s.amount, 1), back, code_b(c));
            if (!back.empty()) push_return(g, side, back);
            break;
        }
        case OP_SHIFT_OFF_TOKEN:
            token_off(g, S.pieces[pi].side, c);
            break;
        default:
            break;
    }
}

// What a word does at once (Op.run); true when a repeating step is done
bool op_run(Game& g, int pi, const Frame& sf, const StepDef& s) {
    State& S = *g.S;
    switch (s.op) {
        case OP_STAND_UP:
            stand_up(g, pi, sf.source);
            return true;
        case OP_STAND_UP_OR_SHIFT_OFF: {
            Piece& me = S.pieces[pi];
            if (me.square < 0) {
                std::vector<int16_t> back;
                shift_off(g, me.side, piece_track_item(g, pi), back);
                if (!back.empty()) {
                    Event e = ev(E_OFF_THE_TRACK);
                    e.piece = me.id;
                    e.source = sf.source;
                    emit(g, e);
                    push_return(g, me.side, back);
                }
            } else {
                stand_up(g, pi, sf.source);
            }
            return true;
        }
        case OP_CHALLENGE: {  // "challenge N" at the target the card already aimed
            int target = piece_of(g, sf.target);
            int buf[MAX_PIECES];
            int n = challenge_targets(g, pi, s.range == NIL16 ? -1 : s.range, buf);
            bool legal = false;
            for (int i = 0; i < n; ++i)
                if (buf[i] == target) legal = true;
            if (target < 0 || !legal) throw CannotBeDone{g.R->str_misc[S_TARGET_GONE]};
            declare_challenge(g, pi, target, attack_dice(g, target, s), sf.source);
            return true;
        }
        case OP_GIVE_STATUS: {
            if (s.card_str >= 0) {
                if (s.card < 0) throw std::runtime_error("unknown status card");
                if (status_in_play(g, s.card, S.pieces[pi].side))
                    throw CannotBeDone{g.R->status_in_play_why[s.card]};
                give_status(g, pi, s.card);
                return true;
            }
            int buf[64];
            if (!free_statuses(g, s.group, S.pieces[pi].side, buf))
                throw CannotBeDone{s.group >= 0 ? g.R->group_every_why[s.group] : int16_t(-1)};
            push_choice(g, S.pieces[pi].side, g.R->status_step_of_group[s.group], pi, false, H_NONE);
            return true;
        }
        case OP_SHIFT_OFF: {
            std::vector<int16_t> back;
            if (s.shift_item >= 0) shift_off(g, S.pieces[pi].side, s.shift_item, back);
            if (!back.empty()) push_return(g, S.pieces[pi].side, back);
            return true;
        }
        default:
            return true;
    }
}

bool op_immediate(const StepDef& s) {
    switch (s.op) {
        case OP_STAND_UP:
        case OP_STAND_UP_OR_SHIFT_OFF:
        case OP_GIVE_STATUS:
        case OP_SHIFT_OFF:
            return true;
        case OP_CHALLENGE:
            return s.target == 2;
        default:
            return false;
    }
}

}  // namespace fk
