// The decisions the shipped cards' hooks ask (content/hooks).
#include "rules.hpp"

namespace fk {

// --------------------------------------------------------------------------- hooks' decisions

// the challenge about to be rolled (stack.nearest_roll)
Frame* nearest_roll(Game& g) {
    int i = nearest_roll_index(g);
    return i >= 0 ? &g.S->stack[i] : nullptr;
}

// Hook.choices of the shipped hooks
void hook_choices(Game& g, int owner, uint8_t hook, Codes& out) {
    State& S = *g.S;
    const Piece& o = S.pieces[owner];
    switch (hook) {
        case H_CHAMPION_OF_THEMYSCIRA: {
            Frame* roll = nearest_roll(g);
            if (!roll || !champion_roller(g, owner, *roll)) return;
            out.push_back(code(C_OPTION, OPT_CHAMPION_ADD));
            return;
        }
        case H_BLOODY_TERROR:
            if (!track_position(g, o.side, g.R->blood_item)) return;
            out.push_back(code(C_OPTION, OPT_BLOOD_DIE));
            out.push_back(code(C_OPTION, OPT_BLOOD_PLACE));
            return;
        case H_FORBIDDEN_DEPTHS: {
            if (o.square < 0) return;
            int sq = o.square;
            token_place_options(g, owner, R_TUNNEL, &sq, 1, out);
            return;
        }
        case H_MADE_ME_FROM_DEAD:
            token_off_options(g, o.side, out);
            return;
        default:
            return;
    }
}

// Hook.choose of the shipped hooks
void hook_choose(Game& g, int owner, uint8_t hook, int32_t c) {
    State& S = *g.S;
    Piece& o = S.pieces[owner];
    switch (hook) {
        case H_CHAMPION_OF_THEMYSCIRA: {  // Champion of Themyscira: the die joins the roll of her side
            Frame* roll = nearest_roll(g);
            if (!roll) return;
            int side = champion_roller(g, owner, *roll);
            int who;
            if (side == 1) {
                roll->attack[roll->nattack++] = uint8_t(g.R->die_champion);
                who = roll->piece;
            } else if (side == 2) {
                roll->defense[roll->ndefense++] = uint8_t(g.R->die_champion);
                who = roll->target;
            } else {
                return;
            }
            track_place(g, o.side, g.R->champion_item, g.R->hook_number(H_CHAMPION_OF_THEMYSCIRA, 0));
            Event e = ev(E_DIE_ADDED);
            e.piece = S.pieces[who].id;
            e.name = g.R->str_misc[S_CHAMPION_DIE];
            e.number = g.R->hook_number(H_CHAMPION_OF_THEMYSCIRA, 0);
            e.rule = g.R->str_misc[S_CHAMPION_RULE];
            emit(g, e);
            return;
        }
        case H_BLOODY_TERROR: {  // The Bloody Terror of Transylvania
            if (code_a(c) == OPT_BLOOD_PLACE) {
                track_place(g, o.side, g.R->blood_item, g.R->hook_number(H_BLOODY_TERROR, 0));
                Event e = ev(E_DIE_PLACED);
                e.piece = o.id;
                e.name = g.R->str_misc[S_BLOOD_TOKEN];
                e.number = g.R->hook_number(H_BLOODY_TERROR, 0);
                e.rule = g.R->str_misc[S_BLOOD_RULE];
                emit(g, e);
                return;
            }
            std::vector<int16_t> back;
            shift_down(g, o.side, g.R->blood_item, 1, back);
            Frame* roll = nearest_roll(g);
            if (roll) {
                roll->attack[roll->nattack++] = uint8_t(g.R->die_blood);
                Event e = ev(E_DIE_ADDED);
                e.piece = o.id;
                e.name = g.R->str_misc[S_BLOOD_DIE];
                e.number = 0;
                e.rule = g.R->str_misc[S_BLOOD_RULE];
                emit(g, e);
            }
            return;
        }
        case H_FORBIDDEN_DEPTHS:
            place_token(g, owner, c);
            return;
        case H_MADE_ME_FROM_DEAD:
            token_off(g, o.side, c);
            return;
        default:
            return;
    }
}

}  // namespace fk
