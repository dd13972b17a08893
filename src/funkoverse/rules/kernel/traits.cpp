// Traits as their card files give them (funkoverse.rules.core.traits), read as the Python
// engine reads them (funkoverse.rules.vocabulary.traits): no card is named here.
#include "rules.hpp"

namespace fk {

namespace {

const TraitDef& trait_of(Game& g, int t) { return g.R->traits[t]; }

bool has_need(const TriggerDef& tr, int need) { return (tr.needs >> need) & 1u; }

bool seen_by_a_rival(Game& g, int pi) {
    const State& S = *g.S;
    for (int k = 0; k < S.npieces; ++k) {
        const Piece& p = S.pieces[k];
        if (p.square < 0 || p.side == S.pieces[pi].side || !rival_kind(p.kind)) continue;
        if (can_see_piece(g, k, pi)) return true;
    }
    return false;
}

// TraitHook._holds: the owner's needs and the cooldown track's conditions
bool holds(Game& g, int owner, const TriggerDef& tr) {
    const Piece& o = g.S->pieces[owner];
    if (tr.needs) {
        if (o.square < 0) return false;
        if (has_need(tr, N_STANDING) && !o.standing) return false;
        if (has_need(tr, N_UNSEEN_BY_RIVALS) && seen_by_a_rival(g, owner)) return false;
    }
    if (tr.on_track >= 0 && !track_position(g, o.side, tr.on_track)) return false;
    if (tr.off_track >= 0 && track_position(g, o.side, tr.off_track)) return false;
    return true;
}

// _roller: 1 the challenger's dice, 2 the defender's, 0 none of the owner's concern
int roller(Game& g, int owner, const TriggerDef& tr, const Frame& roll) {
    if (tr.who == WHO_SELF_CHALLENGING) return roll.piece == owner ? 1 : 0;
    if (tr.who != WHO_SELF_OR_ADJACENT_ALLY_ROLLS) return 0;
    const State& S = *g.S;
    const Piece& o = S.pieces[owner];
    if (o.square < 0) return 0;
    const Bits& near = g.B().adjacent_bits[o.square];
    auto beside = [&](int pi) {
        const Piece& p = S.pieces[pi];
        return pi != owner && p.side == o.side && p.square >= 0 && near.test(p.square);
    };
    const Piece& ch = S.pieces[roll.piece];
    const Piece& tg = S.pieces[roll.target];
    if (ch.side == o.side && (roll.piece == owner || beside(roll.piece))) return 1;
    if (tg.side == o.side && tg.defense >= 0 && roll.ndefense && (roll.target == owner || beside(roll.target)))
        return 2;
    return 0;
}

bool concerns(Game& g, int owner, uint8_t who, int subject) {
    const State& S = *g.S;
    if (who == WHO_RIVAL) return S.pieces[subject].side != S.pieces[owner].side;
    if (who == WHO_ALLY) return subject != owner && S.pieces[subject].side == S.pieces[owner].side;
    return subject == owner;
}

// the decisions triggers ask, gathered, then put on the stack so that the first asked
// decides first; a step of the effects vocabulary is no trait's to answer (H_NONE)
struct Asked {
    struct One {
        int owner;
        int16_t step;
        uint8_t hook;
        bool optional;
    };
    One asked[64];
    int n = 0;
    void add(int owner, int t, const TriggerDef& tr) {
        if (tr.step < 0) return;
        if (n + tr.times > 64) throw std::runtime_error("too many decisions asked at once");
        for (int k = 0; k < tr.times; ++k)
            asked[n++] = {owner, tr.step, tr.offer == OF_STEP ? H_NONE : uint8_t(t), tr.optional};
    }
    void push(Game& g) {
        for (int i = n - 1; i >= 0; --i) {
            const One& a = asked[i];
            push_choice(g, g.S->pieces[a.owner].side, a.step, a.owner, a.optional, a.hook);
        }
    }
};

void add_die(Game& g, int owner, const TriggerDef* tr, const EffectDef& e, bool say, int16_t rule) {
    Frame* roll = nearest_roll(g);
    if (!roll || !tr) return;
    int side = roller(g, owner, *tr, *roll);
    int who;
    if (side == 1) {
        if (roll->nattack >= DICE_CAP) throw std::runtime_error("too many dice");
        roll->attack[roll->nattack++] = uint8_t(e.die);
        who = roll->piece;
    } else if (side == 2) {
        if (roll->ndefense >= DICE_CAP) throw std::runtime_error("too many dice");
        roll->defense[roll->ndefense++] = uint8_t(e.die);
        who = roll->target;
    } else {
        return;
    }
    const Piece& o = g.S->pieces[owner];
    if (e.space) track_place(g, o.side, e.item, e.space);
    if (!say) return;
    Event ev_ = ev(E_DIE_ADDED);
    ev_.piece = g.S->pieces[who].id;
    ev_.name = e.name;
    ev_.number = e.space;
    ev_.rule = rule;
    emit(g, ev_);
}

}  // namespace

// TraitHook._do: effects in order; `say` false does them without a word in the log
void trait_effects(Game& g, int owner, int t, const TriggerDef* tr, const std::vector<EffectDef>& effects, bool say) {
    State& S = *g.S;
    Piece& o = S.pieces[owner];
    const TraitDef& td = trait_of(g, t);
    for (const EffectDef& e : effects) {
        switch (e.op) {
            case EF_PLACE_ON_TRACK: {
                track_place(g, o.side, e.item, e.space);
                if (!say) break;
                Event x = ev(E_DIE_PLACED);
                x.piece = o.id;
                x.name = e.name;
                x.number = e.space;
                x.rule = td.title;
                emit(g, x);
                break;
            }
            case EF_SHIFT_DOWN: {
                std::vector<int16_t> back;
                shift_down(g, o.side, e.item, e.by, back);
                break;
            }
            case EF_ADD_DIE:
                add_die(g, owner, tr, e, say, td.title);
                break;
            case EF_DISCARD_THIS_CARD: {
                if (td.card < 0 || !o.has_status(td.card)) break;
                int w = 0;
                bool removed = false;
                for (int i = 0; i < o.nstat; ++i) {
                    if (!removed && o.statuses[i] == td.card) {
                        removed = true;
                        continue;
                    }
                    o.statuses[w++] = o.statuses[i];
                }
                o.nstat = uint8_t(w);
                Event x = ev(E_STATUS_DISCARDED);
                x.piece = o.id;
                x.card = g.R->statuses[td.card].id;
                x.name = g.R->statuses[td.card].name;
                x.rule = td.title;
                emit(g, x);
                break;
            }
            default:  // extra_action: the engine counts it at the start of the turn
                break;
        }
    }
}

// challenges.before_roll: ask each trait once, in turn order, whether it wants a say
void before_roll(Game& g) {
    OwnedHook hs[64];
    int n = in_turn_order(g, hs);
    Asked asked;
    Frame roll = *g.S->top();
    Frame& live = *g.S->top();
    const int count = int(g.R->traits.size());
    for (int i = 0; i < n; ++i) {
        int key = hs[i].owner * count + hs[i].hook;
        bool seen = false;
        for (int j = 0; j < live.nasked; ++j)
            if (live.asked[j] == key) seen = true;
        if (seen) continue;
        if (live.nasked >= ASKED_CAP) throw std::runtime_error("too many traits asked before one roll");
        live.asked[live.nasked++] = int16_t(key);
        int owner = hs[i].owner;
        const TraitDef& td = trait_of(g, hs[i].hook);
        for (const TriggerDef& tr : td.triggers) {
            if (!((tr.when >> W_BEFORE_ROLL) & 1u) || !roller(g, owner, tr, roll)) continue;
            if (!holds(g, owner, tr)) {
                trait_effects(g, owner, hs[i].hook, &tr, tr.otherwise, false);
                continue;
            }
            trait_effects(g, owner, hs[i].hook, &tr, tr.effects, false);
            asked.add(owner, hs[i].hook, tr);
        }
    }
    asked.push(g);
}

// stack.react: traits that listen for `when` done by `subject`, the current player's first
void react(Game& g, int when, int subject) {
    OwnedHook hs[64];
    int n = in_turn_order(g, hs);
    Asked asked;
    for (int i = 0; i < n; ++i) {
        for (const TriggerDef& tr : trait_of(g, hs[i].hook).triggers) {
            if (!((tr.when >> when) & 1u)) continue;
            if (!concerns(g, hs[i].owner, tr.who, subject) || !holds(g, hs[i].owner, tr)) continue;
            asked.add(hs[i].owner, hs[i].hook, tr);
        }
    }
    asked.push(g);
}

// engine._turn_start: actions its traits add, decisions they ask, trait by trait
void turn_start(Game& g, int pi) {
    State& S = *g.S;
    uint8_t hs[32];
    int n = hooks_of(g, pi, hs);
    for (int i = 0; i < n; ++i) {
        const TraitDef& td = trait_of(g, hs[i]);
        int extra = 0;
        for (const TriggerDef& tr : td.triggers) {
            if (!((tr.when >> W_TURN_START) & 1u) || !holds(g, pi, tr)) continue;
            for (const EffectDef& e : tr.effects)
                if (e.op == EF_EXTRA_ACTION) extra += e.count;
        }
        if (extra) {
            S.actions_left += extra;
            Event e = ev(E_EXTRA_ACTION);
            e.piece = S.pieces[pi].id;
            e.number = extra;
            e.name = td.title;
            emit(g, e);
        }
        Asked asked;
        for (const TriggerDef& tr : td.triggers) {
            if (!((tr.when >> W_TURN_START) & 1u) || !holds(g, pi, tr)) continue;
            asked.add(pi, hs[i], tr);
        }
        asked.push(g);
    }
}

// engine._after_action: the card's traits, and those of the status cards it had when the
// action began
void after_action(Game& g, int pi, const int16_t* had, int nhad) {
    std::vector<uint8_t> traits;
    const Piece& p = g.S->pieces[pi];
    if (p.card >= 0)
        for (uint8_t h : g.R->cards[p.card].hooks) traits.push_back(h);
    for (int i = 0; i < nhad; ++i)
        for (uint8_t h : g.R->statuses[had[i]].hooks) traits.push_back(h);
    for (uint8_t t : traits)
        for (const TriggerDef& tr : trait_of(g, t).triggers)
            if (((tr.when >> W_AFTER_ACTION) & 1u) && holds(g, pi, tr)) trait_effects(g, pi, t, &tr, tr.effects, true);
}

// vocabulary.give_status's listeners: the traits of the piece given the card
void status_given(Game& g, int pi, int card) {
    const Piece& p = g.S->pieces[pi];
    int group = g.R->statuses[card].group;
    int given = 0;
    for (int k = 0; k < p.nstat; ++k)
        if (g.R->statuses[p.statuses[k]].group == group) ++given;
    uint8_t hs[32];
    int n = hooks_of(g, pi, hs);
    Asked asked;
    for (int i = 0; i < n; ++i)
        for (const TriggerDef& tr : trait_of(g, hs[i]).triggers) {
            if (!((tr.when >> W_GIVEN_STATUS) & 1u)) continue;
            if (tr.group >= 0 && tr.group != group) continue;
            if (tr.count && given != tr.count) continue;
            if (holds(g, pi, tr)) asked.add(pi, hs[i], tr);
        }
    asked.push(g);
}

namespace {
const TriggerDef* asking(Game& g, int t, int16_t step) {
    for (const TriggerDef& tr : trait_of(g, t).triggers)
        if (tr.step == step && tr.offer != OF_STEP) return &tr;
    return nullptr;
}
}  // namespace

// TraitHook.choices
void trait_choices(Game& g, int owner, int t, int16_t step, Codes& out) {
    const TriggerDef* tr = asking(g, t, step);
    if (!tr) return;
    const Piece& o = g.S->pieces[owner];
    if (tr->offer == OF_SHIFT_OFF_TOKEN) {
        token_off_options(g, o.side, out);
        return;
    }
    if (!holds(g, owner, *tr)) return;
    if (tr->offer == OF_PLACE_TOKEN_HERE) {
        int sq = o.square;
        token_place_options(g, owner, tr->token, &sq, 1, out);
        return;
    }
    if ((tr->when >> W_BEFORE_ROLL) & 1u) {
        Frame* roll = nearest_roll(g);
        if (!roll || !roller(g, owner, *tr, *roll)) return;
    }
    for (const AnswerDef& a : tr->answers) out.push_back(code(C_OPTION, a.option));
}

// TraitHook.choose
void trait_choose(Game& g, int owner, int t, int16_t step, int32_t c) {
    const TriggerDef* tr = asking(g, t, step);
    if (!tr) return;
    if (tr->offer == OF_SHIFT_OFF_TOKEN) {
        token_off(g, g.S->pieces[owner].side, c);
        return;
    }
    if (tr->offer == OF_PLACE_TOKEN_HERE) {
        place_token(g, owner, c);
        return;
    }
    for (const AnswerDef& a : tr->answers)
        if (code_kind(c) == C_OPTION && code_a(c) == a.option) {
            trait_effects(g, owner, t, tr, a.effects, true);
            return;
        }
}

// TraitHook.defense of every trait in play: what it adds to `pi`'s defense
int trait_defense(Game& g, int pi, bool& any) {
    int add = 0;
    OwnedHook hs[64];
    int n = all_hooks(g, hs);
    for (int i = 0; i < n; ++i) {
        const TraitDef& td = trait_of(g, hs[i].hook);
        if (!td.defense || hs[i].owner != pi) continue;
        if (td.defense_while >= 0 && !track_position(g, g.S->pieces[pi].side, td.defense_while)) continue;
        add += td.defense;
        any = true;
    }
    return add;
}

// TraitHook.reach: how far `pi` assists (purpose 0) or interacts (1), in squares it sees
int trait_reach(Game& g, int pi, int purpose) {
    uint8_t hs[32];
    int n = hooks_of(g, pi, hs);
    int reach = 1;
    for (int i = 0; i < n; ++i) {
        const TraitDef& td = trait_of(g, hs[i]);
        if ((td.reach_for >> purpose) & 1u) reach = std::max(reach, td.reach);
    }
    return reach;
}

// TraitHook.move_links: the owner's tokens that link as adjacent when it moves
bool trait_links(Game& g, int pi, Links& links) {
    uint8_t hs[32];
    int n = hooks_of(g, pi, hs);
    int side = g.S->pieces[pi].side;
    for (int i = 0; i < n; ++i) {
        const TraitDef& td = trait_of(g, hs[i]);
        if (td.links < 0) continue;
        links.reach = td.links_within;
        for (int k = 0; k < g.S->npieces; ++k) {
            const Piece& p = g.S->pieces[k];
            if (p.role == td.links && p.side == side && (p.kind == K_TOKEN || p.kind == K_MINION) && p.square >= 0)
                links.squares.set(p.square);
        }
        return links.any();
    }
    return false;
}

// TraitHook.interactions: rivals' tokens `pi` may interact with to discard them
void trait_interactions(Game& g, int pi, const Bits& squares, Codes& out) {
    const Piece& p = g.S->pieces[pi];
    OwnedHook hs[64];
    int n = all_hooks(g, hs);
    for (int i = 0; i < n; ++i) {
        const TraitDef& td = trait_of(g, hs[i].hook);
        if (td.rivals_discard < 0) continue;
        const Piece& owner = g.S->pieces[hs[i].owner];
        if (p.side == owner.side) continue;
        int toks[MAX_PIECES];
        int nt = tokens_of(g, owner.side, td.rivals_discard, toks);
        for (int t = 0; t < nt; ++t) {
            const Piece& tk = g.S->pieces[toks[t]];
            if (tk.square >= 0 && squares.test(tk.square)) out.push_back(code(C_INTERACT, toks[t]));
        }
    }
}

// TraitHook.interact: true when the interaction was a trait's (a token discarded)
bool trait_interact(Game& g, int pi, int32_t c) {
    if (code_kind(c) != C_INTERACT) return false;
    OwnedHook hs[64];
    int n = all_hooks(g, hs);
    for (int i = 0; i < n; ++i) {
        const TraitDef& td = trait_of(g, hs[i].hook);
        if (td.rivals_discard < 0) continue;
        const Piece& owner = g.S->pieces[hs[i].owner];
        Piece& tk = g.S->pieces[code_a(c)];
        if (!(tk.role == td.rivals_discard && tk.side == owner.side && (tk.kind == K_TOKEN || tk.kind == K_MINION)))
            continue;
        tk.square = -1;
        Event e = ev(E_TOKEN_DISCARDED);
        e.piece = g.S->pieces[pi].id;
        e.other = tk.id;
        e.name = g.R->role_name[tk.role];
        e.rule = td.title;
        emit(g, e);
        return true;
    }
    return false;
}

}  // namespace fk
