// The stack of work in progress and the reactions it holds (funkoverse.rules.stack).
#include "rules.hpp"

namespace fk {

// --------------------------------------------------------------------------- frames (stack)

Frame& push_return(Game& g, int side, const std::vector<int16_t>& pieces) {
    Frame& f = g.S->push(F_RETURN);
    f.side = int8_t(side);
    f.npieces = uint8_t(pieces.size());
    for (size_t i = 0; i < pieces.size(); ++i) f.pieces[i] = pieces[i];
    return f;
}

Frame& push_choice(Game& g, int side, int step, int piece, bool optional, uint8_t hook) {
    Frame& f = g.S->push(F_CHOICE);
    f.side = int8_t(side);
    f.step = int16_t(step);
    f.piece = int16_t(piece);
    f.optional = optional;
    f.hook = hook;
    return f;
}

Frame& push_steps(Game& g, int piece, int source, int seq, int target, bool standing) {
    Frame& f = g.S->push(F_STEPS);
    f.piece = int16_t(piece);
    f.source = int16_t(source);
    f.seq = int16_t(seq);
    f.pc = 0;
    f.target = int16_t(target);
    f.started_standing = standing;
    return f;
}

Frame* nearest_steps(Game& g) {
    for (int i = g.S->nstack - 1; i >= 0; --i)
        if (g.S->stack[i].type == F_STEPS) return &g.S->stack[i];
    return nullptr;
}

int nearest_roll_index(Game& g) {
    for (int i = g.S->nstack - 1; i >= 0; --i)
        if (g.S->stack[i].type == F_ROLL) return i;
    return -1;
}

Frame* nearest_roll(Game& g) {
    int i = nearest_roll_index(g);
    return i >= 0 ? &g.S->stack[i] : nullptr;
}

int16_t current_source(Game& g) {
    Frame* f = nearest_steps(g);
    return f ? f->source : g.R->str_misc[S_CHALLENGE];
}

bool in_targets_so_far(Game& g, int16_t pid) {
    Frame* f = nearest_steps(g);
    if (!f) return false;
    for (int i = 0; i < f->ntargets; ++i)
        if (f->targets[i] == pid) return true;
    return false;
}

void add_target(Frame* f, int16_t pid) {
    if (f->ntargets >= TARGETS_CAP) throw std::runtime_error("too many targets");
    f->targets[f->ntargets++] = pid;
}
// --------------------------------------------------------------------------- reacting (stack)

// stack.stand_up
void stand_up(Game& g, int pi, int16_t why) {
    Piece& p = g.S->pieces[pi];
    if (p.standing || p.square < 0) return;
    p.standing = true;
    Event e = ev(E_STOOD_UP);
    e.piece = p.id;
    e.source = why;
    emit(g, e);
    react(g, W_STOOD_UP, pi);
}

}  // namespace fk
