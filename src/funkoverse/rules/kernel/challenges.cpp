// Declaring a challenge, what comes before the dice, what losing does (funkoverse.rules.challenges).
#include "rules.hpp"

namespace fk {

// --------------------------------------------------------------------------- challenges

int highest_point_marker(Game& g) {
    int best = 0;
    for (int s = 0; s < g.R->nsides; ++s) {
        const SideState& side = g.S->sides[s];
        for (int k = 0; k < TRACK; ++k)
            for (int i = 0; i < side.nslot[k]; ++i)
                if (g.R->track_items[side.slot[k][i]].kind == T_POINT) best = std::max(best, k + 1);
    }
    return best;
}

// challenges.attack_dice
int attack_dice(Game& g, int target, const StepDef& s) {
    int dice = s.get(s.dice, BASIC_CHALLENGE_DICE);
    if (s.bonus == 1) dice += defense_of(g, target);
    else if (s.bonus == 2) dice += highest_point_marker(g);
    if (!g.S->pieces[target].standing) dice += s.get(s.extra_vs_knocked_down, 0);
    return dice;
}

// challenges.declare_challenge
void declare_challenge(Game& g, int challenger, int target, int dice, int16_t source) {
    int defense = defense_of(g, target);
    if (dice > DICE_CAP || defense > DICE_CAP) throw std::runtime_error("too many dice");
    Frame* steps = nearest_steps(g);
    if (steps) {
        steps->target = g.S->pieces[target].id;
        add_target(steps, g.S->pieces[target].id);
    }
    Frame& f = g.S->push(F_ROLL);
    f.piece = int16_t(challenger);
    f.target = int16_t(target);
    f.nattack = uint8_t(dice);
    f.ndefense = uint8_t(defense);
    for (int i = 0; i < dice; ++i) f.attack[i] = uint8_t(g.R->die_standard);
    for (int i = 0; i < defense; ++i) f.defense[i] = uint8_t(g.R->die_standard);
    f.source = source;
    Event e = ev(E_CHALLENGE);
    e.piece = g.S->pieces[challenger].id;
    e.other = g.S->pieces[target].id;
    e.number = dice;
    e.total = defense;
    e.source = source;
    emit(g, e);
    before_roll(g);
}

// challenges.knock_out: onto the 1 of its player's cooldown track
void knock_out(Game& g, int victim, int by) {
    State& S = *g.S;
    int credit = by;
    if (by >= 0 && S.pieces[by].owner >= 0 && S.pieces[by].kind != K_CHARACTER) {
        int owner = piece_of(g, S.pieces[by].owner);
        if (owner >= 0) credit = owner;
    }
    Piece& v = S.pieces[victim];
    int16_t where = sq_or_none(v.square);
    Events* outer = g.ev;
    Events scored;
    g.ev = &scored;
    on_knockout(g, credit, victim);
    g.ev = outer;
    v.square = -1;
    v.standing = true;
    track_place(g, v.side, piece_track_item(g, victim), KNOCKED_OUT_SLOT);
    Event e = ev(E_KNOCKED_OUT);
    e.piece = v.id;
    e.square = where;
    emit(g, e);
    for (auto& s : scored) emit(g, s);
    // stack.react("knocked_out"): no shipped trait listens
}

// challenges.resolve_challenge
void resolve_challenge(Game& g, const Frame& roll, bool won) {
    State& S = *g.S;
    Frame* steps = nearest_steps(g);
    if (steps) steps->won = int8_t(won);
    if (!won) {
        Event e = ev(E_CHALLENGE_LOST);
        e.piece = S.pieces[roll.piece].id;
        emit(g, e);
        return;
    }
    Piece& t = S.pieces[roll.target];
    if (t.square < 0) return;
    if (knockable_kind(t.kind)) {
        if (t.standing) {
            t.standing = false;
            Event e = ev(E_KNOCKED_DOWN);
            e.piece = t.id;
            emit(g, e);
        } else {
            knock_out(g, roll.target, roll.piece);
        }
    } else if (t.kind == K_COMPANION) {
        t.square = -1;
        track_place(g, t.side, piece_track_item(g, roll.target), COMPANION_SLOT);
        Event e = ev(E_COMPANION_OUT);
        e.piece = t.id;
        emit(g, e);
    } else {
        t.square = -1;
        Event e = ev(E_TOKEN_REMOVED);
        e.piece = t.id;
        emit(g, e);
    }
}

}  // namespace fk
