// Following an ability's steps (funkoverse.rules.steps).
#include "rules.hpp"

namespace fk {

// --------------------------------------------------------------------------- following steps

// steps.abort: "If the ability contains a part that cannot be done, the ability ends"
void abort_steps(Game& g, int16_t why) {
    int i;
    for (i = g.S->nstack - 1; i >= 0; --i)
        if (g.S->stack[i].type == F_STEPS) break;
    if (i < 0) return;
    Frame f = g.S->stack[i];
    g.S->nstack = i;
    Event e = ev(E_ABILITY_ENDED);
    e.piece = g.S->pieces[f.piece].id;
    e.name = f.source;
    e.source = (why >= 0 && why != g.R->s_empty) ? why : int16_t(-1);
    emit(g, e);
}

// steps.options: the legal options of a decision frame (Skip last where the card says "you may")
void frame_options(Game& g, const Frame& cf, Codes& out) {
    size_t start = out.size();
    if (cf.hook == H_SCENARIO) {
        if (step_of(g, cf.step).op == OP_FLAG_RETURN) scenario_choices(g, cf.side, out);
    } else if (cf.hook != H_NONE) {
        if (has_hook(g, cf.piece, cf.hook)) trait_choices(g, cf.piece, cf.hook, cf.step, out);
    } else {
        op_options(g, cf, out);
    }
    if (out.size() > start && cf.optional) out.push_back(code(C_SKIP));
}

// steps.apply_option
void apply_option(Game& g, const Frame& cf, int32_t c) {
    if (cf.hook == H_SCENARIO) {
        if (code_kind(c) != C_SKIP && step_of(g, cf.step).op == OP_FLAG_RETURN) scenario_choose(g, cf.side, c);
        return;
    }
    if (code_kind(c) == C_SKIP) {
        Event e = ev(E_DECLINED);
        e.piece = g.S->pieces[cf.piece].id;
        emit(g, e);
        return;
    }
    if (cf.hook != H_NONE) {
        if (has_hook(g, cf.piece, cf.hook)) trait_choose(g, cf.piece, cf.hook, cf.step, c);
        return;
    }
    op_apply(g, cf, cf.piece, c);
}

// steps.run: do the next step of the ability on top of the stack
void run_steps(Game& g) {
    State& S = *g.S;
    Frame& top = S.stack[S.nstack - 1];
    Frame frame = top;  // as it was when the step began
    Piece& piece = S.pieces[frame.piece];
    const auto& steps = g.R->seqs[frame.seq];
    if (frame.pc >= steps.size()) {
        S.nstack--;
        return;
    }
    if (frame.pc == 0 && frame.started_standing && piece.square < 0 && frame.ntargets == 0) {
        top.started_standing = false;  // done from the cooldown track: not "knocked down in the middle"
        return;
    }
    if (frame.started_standing && (!piece.standing || piece.square < 0)) {
        Event e = ev(E_ABILITY_STOPPED);
        e.piece = piece.id;
        e.name = frame.source;
        emit(g, e);
        S.nstack--;
        return;
    }
    int step = steps[frame.pc];
    const StepDef& s = step_of(g, step);
    if (s.if_won && frame.won != 1) {
        top.pc = uint8_t(frame.pc + 1);
        return;
    }
    bool repeats = op_repeats(s);
    if (!repeats) top.pc = uint8_t(frame.pc + 1);
    try {
        if (op_immediate(s)) {
            bool done = op_run(g, frame.piece, frame, s);
            if (repeats && done) {
                Frame* f = nearest_steps(g);
                if (f) f->pc = uint8_t(frame.pc + 1);
            }
        } else {
            Frame cf;
            cf.type = F_CHOICE;
            cf.side = piece.side;
            cf.step = int16_t(step);
            cf.piece = frame.piece;
            cf.optional = s.optional;
            if (repeats) {
                Codes options;
                op_options(g, cf, options);
                if (options.empty()) {
                    Frame* f = nearest_steps(g);
                    if (f) f->pc = uint8_t(frame.pc + 1);
                    return;
                }
            }
            Frame& pushed = S.push(F_CHOICE);
            pushed = cf;
        }
    } catch (const CannotBeDone& why) {
        abort_steps(g, why.why);
    }
}

}  // namespace fk
