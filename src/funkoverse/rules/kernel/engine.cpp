// The turn and round machine, the legal choices, the effects vocabulary, the hooks of the
// shipped cards and the scenarios' rules: funkoverse.rules.engine, menus, steps, stack,
// challenges, track, vocabulary, scenario, setup_phase and content/hooks, one function for
// one function, on the flat state.
#include "geometry.hpp"

namespace fk {

namespace {

struct CannotBeDone {
    int16_t why;  // a string, -1: none
};

// --------------------------------------------------------------------------- small questions

inline void emit(Game& g, const Event& e) { g.ev->push_back(e); }

inline Event ev(uint8_t kind) {
    Event e;
    e.kind = kind;
    return e;
}

inline int16_t sq_or_none(int sq) { return int16_t(sq >= 0 ? sq : -1); }

inline int16_t pid_str(Game& g, int pi) { return g.S->pieces[pi].id; }

inline int16_t side_str(Game& g, int side) { return side >= 0 ? g.R->side_str[side] : g.R->s_empty; }

int piece_of(Game& g, int16_t str) {  // state.pieces.get(id): -1 when none
    if (str < 0 || str >= int(g.R->piece_of_string.size())) return -1;
    int p = g.R->piece_of_string[str];
    return p < g.S->npieces ? p : -1;
}

// seats from the first player on (setup_phase.order)
int order_from(Game& g, int first, int* out) {
    int n = g.R->nsides;
    int start = first >= 0 ? first : 0;
    for (int i = 0; i < n; ++i) out[i] = (start + i) % n;
    return n;
}

// state.characters(side)
int characters(Game& g, int side, int* out) {
    int n = 0;
    for (int i = 0; i < g.S->npieces; ++i) {
        const Piece& p = g.S->pieces[i];
        if (p.side == side && character_kind(p.kind)) out[n++] = i;
    }
    return n;
}

// --------------------------------------------------------------------------- hooks (world)

// world.hooks_of: the hooks of a piece's card and of the status cards it has been given
int hooks_of(Game& g, int pi, uint8_t* out) {
    const Piece& p = g.S->pieces[pi];
    int n = 0;
    if (p.card >= 0)
        for (uint8_t h : g.R->cards[p.card].hooks) out[n++] = h;
    for (int i = 0; i < p.nstat; ++i)
        for (uint8_t h : g.R->statuses[p.statuses[i]].hooks) out[n++] = h;
    return n;
}

struct OwnedHook {
    int16_t owner;
    uint8_t hook;
};

// world.all_hooks: every (owner, hook) in the game, pieces in order
int all_hooks(Game& g, OwnedHook* out) {
    int n = 0;
    uint8_t hs[32];
    for (int i = 0; i < g.S->npieces; ++i) {
        const Piece& p = g.S->pieces[i];
        if (p.card < 0 || !character_kind(p.kind)) continue;
        if (g.R->cards[p.card].hooks.empty() && p.nstat == 0) continue;
        int k = hooks_of(g, i, hs);
        for (int j = 0; j < k; ++j) out[n++] = {int16_t(i), hs[j]};
    }
    return n;
}

bool has_hook(Game& g, int pi, uint8_t hook) {
    uint8_t hs[32];
    int k = hooks_of(g, pi, hs);
    for (int j = 0; j < k; ++j)
        if (hs[j] == hook) return true;
    return false;
}

// stack.in_turn_order: every (owner, hook), the side taking the current turn first
int in_turn_order(Game& g, OwnedHook* out) {
    int n = all_hooks(g, out);
    const State& S = *g.S;
    int current = S.to_act >= 0 ? S.to_act : (S.first_player >= 0 ? S.first_player : 0);
    int ns = g.R->nsides;
    auto rank = [&](const OwnedHook& h) {
        int side = S.pieces[h.owner].side;
        return side >= 0 ? (side - current + ns) % ns : 0;
    };
    std::stable_sort(out, out + n, [&](const OwnedHook& a, const OwnedHook& b) { return rank(a) < rank(b); });
    return n;
}

// --------------------------------------------------------------------------- the cooldown track

int track_position(Game& g, int side, int item) { return g.S->sides[side].position(item); }

// track.place
void track_place(Game& g, int side, int item, int number, int was = 0) {
    SideState& s = g.S->sides[side];
    if (was && s.slot_has(was - 1, item)) {
        s.slot_remove(was - 1, item);
    } else {
        for (int k = 0; k < TRACK; ++k)
            if (s.slot_has(k, item)) {
                s.slot_remove(k, item);
                break;
            }
    }
    int at = std::max(1, std::min(number, TRACK));
    s.slot_append(at - 1, item);
}

// track.returned: `item` has left the track; characters and companions come back in `back`
void returned(Game& g, int side, int item, std::vector<int16_t>& back) {
    const TrackItemDef& t = g.R->track_items[item];
    SideState& s = g.S->sides[side];
    if (t.kind == T_TOKEN) {
        s.pool_add(t.color, 1);
        Event e = ev(E_TOKEN_BACK);
        e.side = side_str(g, side);
        e.source = t.ref;
        emit(g, e);
    } else if (t.kind == T_CHARACTER || t.kind == T_COMPANION) {
        back.push_back(t.piece);
    } else if (t.kind == T_POINT) {
        Piece& marker = g.S->pieces[t.piece];
        marker.square = g.R->point_square_of_string[marker.ref];
        Event e = ev(E_MARKER_BACK);
        e.piece = marker.id;
        e.square = marker.square;
        emit(g, e);
    } else {
        Event e = ev(E_SHIFTED_OFF);
        e.side = side_str(g, side);
        e.name = t.words;
        emit(g, e);
    }
}

// track.shift_down
void shift_down(Game& g, int side, int item, int amount, std::vector<int16_t>& back, int at = 0) {
    SideState& s = g.S->sides[side];
    at = (at && s.slot_has(at - 1, item)) ? at : s.position(item);
    if (!at) return;
    if (at - amount >= 1) {
        track_place(g, side, item, at - amount, at);
        Event e = ev(E_SHIFTED_DOWN);
        e.side = side_str(g, side);
        e.name = g.R->track_items[item].words;
        e.number = at - amount;
        emit(g, e);
        return;
    }
    s.slot_remove(at - 1, item);
    returned(g, side, item, back);
}

// track.shift_off
void shift_off(Game& g, int side, int item, std::vector<int16_t>& back) {
    SideState& s = g.S->sides[side];
    for (int k = 0; k < TRACK; ++k)
        if (s.slot_has(k, item)) {
            s.slot_remove(k, item);
            returned(g, side, item, back);
            return;
        }
}

// track.cooldown: everything shifts down one; what shifts off the 1 returns
void cooldown(Game& g, int side, std::vector<int16_t>& back) {
    SideState& s = g.S->sides[side];
    int16_t off[SLOT_CAP];
    int noff = s.nslot[0];
    std::memcpy(off, s.slot[0], sizeof(int16_t) * noff);
    for (int k = 0; k + 1 < TRACK; ++k) {
        s.nslot[k] = s.nslot[k + 1];
        std::memcpy(s.slot[k], s.slot[k + 1], sizeof(int16_t) * s.nslot[k]);
    }
    s.nslot[TRACK - 1] = 0;
    for (int i = 0; i < noff; ++i) returned(g, side, off[i], back);
}

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

// --------------------------------------------------------------------------- world

int defense_of(Game& g, int pi);
bool possible_target(Game& g, int pi, int seq, int from);

// world.abilities_of: the card's abilities, then its status cards' (each once)
int abilities_of(Game& g, int pi, int16_t* out) {
    const Piece& p = g.S->pieces[pi];
    if (p.card < 0) return 0;
    const CardDef& card = g.R->cards[p.card];
    if (card.basic) return 0;
    int n = 0;
    for (int16_t a : card.abilities) out[n++] = a;
    for (int i = 0; i < p.nstat; ++i)
        for (int16_t a : g.R->statuses[p.statuses[i]].abilities) {
            bool seen = false;
            for (int j = 0; j < n; ++j)
                if (out[j] == a) seen = true;
            if (!seen) out[n++] = a;
        }
    return n;
}

// world.ability_cost
int ability_cost(Game& g, int ai, int target) {
    const AbilityDef& a = g.R->abilities[ai];
    int cost = a.cost;
    if (target >= 0 && !g.S->pieces[target].standing) cost += a.cost_vs_knocked_down;
    return cost;
}

// world.find_ability, by the ability id's key
int find_ability(Game& g, int pi, int key) {
    int16_t abil[64];
    int n = abilities_of(g, pi, abil);
    for (int i = 0; i < n; ++i)
        if (g.R->abilities[abil[i]].key == key) return abil[i];
    return -1;
}

// world.defense_of: The Bloody Terror of Transylvania adds 1 while the Blood token is on the track
int defense_of(Game& g, int pi) {
    const Piece& p = g.S->pieces[pi];
    int base = p.defense > 0 ? p.defense : 0;
    int add = 0;
    bool any = false;
    OwnedHook hs[64];
    int n = all_hooks(g, hs);
    for (int i = 0; i < n; ++i) {
        if (hs[i].hook != H_BLOODY || hs[i].owner != pi) continue;
        const Piece& owner = g.S->pieces[hs[i].owner];
        if (g.R->blood_item >= 0 && track_position(g, owner.side, g.R->blood_item)) {
            add += 1;
            any = true;
        }
    }
    return any ? base + add : base;
}

Bits adjacent_set(Game& g, int pi) {
    const Piece& p = g.S->pieces[pi];
    return p.square >= 0 ? g.B().adjacent_bits[p.square] : Bits();
}

// world.reach_set: adjacent, or seen within 2 squares for She Sees
Bits reach_set(Game& g, int pi) {
    Bits squares = adjacent_set(g, pi);
    const Piece& p = g.S->pieces[pi];
    if (p.square >= 0 && has_hook(g, pi, H_SHE_SEES)) {
        const Board& b = g.B();
        Bits seen = visible_squares(b, p.square, sight_blockers(g, pi));
        seen.each([&](int sq) {
            if (b.distance(p.square, sq) <= 2) squares.set(sq);
        });
    }
    return squares;
}

// world.tokens_of
int tokens_of(Game& g, int side, int role, int* out) {
    int n = 0;
    for (int i = 0; i < g.S->npieces; ++i) {
        const Piece& p = g.S->pieces[i];
        if (p.role == role && p.side == side && (p.kind == K_TOKEN || p.kind == K_MINION)) out[n++] = i;
    }
    return n;
}

// world.move_links: The Creature's Tunnels (Forbidden Depths)
bool move_links(Game& g, int pi, Links& links) {
    if (!has_hook(g, pi, H_FORBIDDEN)) return false;
    int side = g.S->pieces[pi].side;
    for (int i = 0; i < g.S->npieces; ++i) {
        const Piece& p = g.S->pieces[i];
        if (p.role == R_TUNNEL && p.side == side && (p.kind == K_TOKEN || p.kind == K_MINION) && p.square >= 0)
            links.squares.set(p.square);
    }
    return links.any();
}

// world.move_options: where a move of up to n can end, its own square included, sorted
Bits move_options(Game& g, int pi, int n) {
    const Piece& p = g.S->pieces[pi];
    if (p.square < 0) return Bits();
    Links links;
    bool linked = move_links(g, pi, links);
    Bits found = move_destinations(g, pi, n, linked ? &links : nullptr);
    found.set(p.square);
    return found;
}

// world.knocked_down_allies_in
int knocked_down_allies_in(Game& g, int pi, const Bits& squares, int* out) {
    int n = 0;
    const Piece& me = g.S->pieces[pi];
    for (int i = 0; i < g.S->npieces; ++i) {
        const Piece& p = g.S->pieces[i];
        if (p.square < 0 || i == pi || p.side != me.side || !knockable_kind(p.kind) || p.standing) continue;
        if (squares.test(p.square)) out[n++] = i;
    }
    return n;
}

// world.arrival_squares: an empty square of the starting area, else the nearest empty ones
int arrival_squares(Game& g, int side, int* out) {
    const std::vector<int16_t>& area = g.R->start_area[side];
    int n = 0;
    for (int16_t sq : area)
        if (placeable(g, sq)) out[n++] = sq;
    if (n) return n;
    const Board& b = g.B();
    int cand[MAX_SQUARES];
    int nc = 0;
    for (int sq = 0; sq < b.n; ++sq)
        if (placeable(g, sq)) cand[nc++] = sq;
    if (!nc || area.empty()) {
        std::memcpy(out, cand, sizeof(int) * nc);
        return nc;
    }
    auto near = [&](int sq) {
        int best = 1 << 20;
        for (int16_t a : area) best = std::min(best, b.distance(sq, a));
        return best;
    };
    int nearest = 1 << 20;
    for (int i = 0; i < nc; ++i) nearest = std::min(nearest, near(cand[i]));
    for (int i = 0; i < nc; ++i)
        if (near(cand[i]) == nearest) out[n++] = cand[i];
    return n;
}

void put_on_map(Piece& p, int square) {
    p.square = int16_t(square);
    p.standing = true;
    p.placed = true;
}

// world.is_rival
inline bool is_rival(const State& S, int pi, int of) {
    const Piece& p = S.pieces[pi];
    return rival_kind(p.kind) && p.side != S.pieces[of].side && pi != of;
}

// --------------------------------------------------------------------------- reacting (stack)

// stack.react for "stood_up" and "interacted_point_marker": Predatory Senses, "While
// standing, if a rival does an interact action with a point marker or stands up, The Cheetah
// may move 1 square." Decisions go on the stack, the current player's first.
void react_senses(Game& g, int subject) {
    OwnedHook hs[64];
    int n = in_turn_order(g, hs);
    int owners[64];
    int nf = 0;
    const int subject_side = g.S->pieces[subject].side;
    for (int i = 0; i < n; ++i) {
        if (hs[i].hook != H_PREDATORY) continue;
        const Piece& owner = g.S->pieces[hs[i].owner];
        if (subject_side == owner.side || owner.square < 0 || !owner.standing) continue;
        owners[nf++] = hs[i].owner;
    }
    for (int i = nf - 1; i >= 0; --i)
        push_choice(g, g.S->pieces[owners[i]].side, g.R->step_move1, owners[i], true, H_NONE);
}

// stack.stand_up
void stand_up(Game& g, int pi, int16_t why) {
    Piece& p = g.S->pieces[pi];
    if (p.standing || p.square < 0) return;
    p.standing = true;
    Event e = ev(E_STOOD_UP);
    e.piece = p.id;
    e.source = why;
    emit(g, e);
    react_senses(g, pi);
}

// --------------------------------------------------------------------------- the scenario

// Scenario.gain: the first games end the moment one reaches the target; the others say so
void gain(Game& g, int side, int points, int16_t why) {
    if (points <= 0 || side < 0) return;
    SideState& s = g.S->sides[side];
    int before = s.points;
    s.points += points;
    Event e = ev(E_POINTS);
    e.side = side_str(g, side);
    e.number = points;
    e.total = s.points;
    e.source = why;
    emit(g, e);
    int target = g.R->target_points;
    if (target == NIL || s.points < target) return;
    if (g.R->scenario.immediate_target) {
        g.S->winner = int8_t(side);
    } else if (before < target) {
        Event t = ev(E_TARGET_REACHED);
        t.side = side_str(g, side);
        t.total = s.points;
        t.number = target;
        emit(g, t);
    }
}

// Scenario.on_knockout, while the victim is still in its square; `by` gets the credit
void on_knockout(Game& g, int by, int victim) {
    const ScenarioDef& sc = g.R->scenario;
    State& S = *g.S;
    const Piece& v = S.pieces[victim];
    if (!knockable_kind(v.kind)) return;  // Companions: no points
    if (sc.first_knockout_wins) {
        if (by >= 0 && S.pieces[by].side != v.side) {
            int side = S.pieces[by].side;
            S.sides[side].points += 1;
            Event e = ev(E_POINTS);
            e.side = side_str(g, side);
            e.number = 1;
            e.total = S.sides[side].points;
            e.source = g.R->str_misc[S_KNOCK_OUT];
            e.rule = g.R->str_misc[S_FIRST_GAME_RULE];
            emit(g, e);
            S.winner = int8_t(side);
        }
        return;
    }
    if (sc.leaders && by >= 0 && S.pieces[by].side != v.side) {
        // Leaders, "Gaining points"
        int side = S.pieces[by].side;
        bool who = S.sides[side].leader == S.pieces[by].id;
        bool whom = S.sides[v.side].leader == v.id;
        static const int points[2][2] = {{1, 3}, {2, 4}};  // [by leader][victim leader]
        gain(g, side, points[who][whom], g.R->leader_why[who][whom]);
    }
    bool scored[MAX_SIDES] = {false, false, false, false};
    if (by >= 0 && S.pieces[by].side != v.side && sc.knockout_points && S.pieces[by].side >= 0)
        scored[S.pieces[by].side] = true;
    if (sc.adjacent_knockout_points && v.square >= 0) {
        for (int i = 0; i < S.npieces; ++i) {
            const Piece& p = S.pieces[i];
            if (p.side != v.side && character_kind(p.kind) && p.square >= 0 && p.side >= 0 &&
                g.B().adjacent_bits[p.square].test(v.square))
                scored[p.side] = true;
        }
    }
    int order[MAX_SIDES];
    int n = 0;
    for (int s = 0; s < g.R->nsides; ++s)
        if (scored[s]) order[n++] = s;
    for (int i = 1; i < n; ++i)  // by the seats' names
        for (int j = i; j > 0 && g.R->side_rank[order[j]] < g.R->side_rank[order[j - 1]]; --j)
            std::swap(order[j], order[j - 1]);
    for (int i = 0; i < n; ++i)
        gain(g, order[i], std::max(sc.knockout_points, 1), g.R->str_misc[S_KNOCK_OUT]);
}

// scenario.flag_returners: standing characters of `side` adjacent to a rival flag
int flag_returners(Game& g, int side, int* out) {
    const State& S = *g.S;
    Bits flags;
    for (int i = 0; i < S.npieces; ++i) {
        const Piece& p = S.pieces[i];
        if (p.role == R_FLAG && p.side != side && p.square >= 0) flags.set(p.square);
    }
    if (!flags.any()) return 0;
    int n = 0;
    for (int i = 0; i < S.npieces; ++i) {
        const Piece& p = S.pieces[i];
        if (p.side != side || !character_kind(p.kind) || p.square < 0 || !p.standing) continue;
        if (g.B().adjacent_bits[p.square].intersects(flags)) out[n++] = i;
    }
    return n;
}

bool returned_already(const SideState& s, int pi) {
    for (int i = 0; i < s.nreturned; ++i)
        if (s.returned[i] == pi) return true;
    return false;
}

// Scenario.round_end_notes: beside a rival flag across a wall corner, said, not left silent
void round_end_notes(Game& g) {
    const State& S = *g.S;
    for (int side = 0; side < g.R->nsides; ++side) {
        for (int i = 0; i < S.npieces; ++i) {
            const Piece& p = S.pieces[i];
            if (p.side != side || !character_kind(p.kind) || p.square < 0 || !p.standing) continue;
            const Bits& near = g.B().adjacent_bits[p.square];
            for (int f = 0; f < S.npieces; ++f) {
                const Piece& flag = S.pieces[f];
                if (flag.role != R_FLAG || flag.side == side || flag.square < 0) continue;
                if (g.B().distance(p.square, flag.square) <= 1 && !near.test(flag.square)) {
                    Event e = ev(E_NO_RETURN);
                    e.piece = p.id;
                    e.other = flag.id;
                    e.side = side_str(g, side);
                    emit(g, e);
                }
            }
        }
    }
}

// Scenario.round_end_frames: Flags, return characters (the first player decides first)
void round_end_frames(Game& g) {
    if (!g.R->scenario.flags) return;
    int order[MAX_SIDES];
    int n = order_from(g, g.S->first_player, order);
    int buf[MAX_PIECES];
    for (int i = n - 1; i >= 0; --i)
        if (flag_returners(g, order[i], buf))
            push_choice(g, order[i], g.R->step_flag_return, -1, true, H_SCENARIO);
}

// Scenario._control_points
void control_points(Game& g) {
    const State& S = *g.S;
    int ns = g.R->nsides;
    int shown[MAX_SIDES] = {0, 0, 0, 0};
    for (int i = 0; i < S.npieces; ++i) {
        const Piece& p = S.pieces[i];
        if (p.role == R_CONTROL && p.square >= 0 && p.side >= 0) shown[p.side] += 1;
    }
    int most = 0;
    for (int s = 0; s < ns; ++s) most = std::max(most, shown[s]);
    int leaders = 0, leader = -1;
    for (int s = 0; s < ns; ++s)
        if (shown[s] == most) {
            ++leaders;
            if (leader < 0) leader = s;
        }
    for (int s = 0; s < ns; ++s)
        if (shown[s] && g.R->control_per_side_three)
            gain(g, s, 1, g.R->str_misc[S_CONTROL_SHOWING]);
    if (most && leaders == 1) gain(g, leader, 1, g.R->str_misc[S_CONTROL_MOST]);
}

// Scenario.check_winner: the most points at the end of a round, if at the target
void check_winner(Game& g) {
    int target = g.R->target_points;
    if (target == NIL || g.R->scenario.first_knockout_wins || g.S->winner >= 0) return;
    int best = INT32_MIN;
    for (int s = 0; s < g.R->nsides; ++s) best = std::max(best, int(g.S->sides[s].points));
    int leaders = 0, leader = -1;
    for (int s = 0; s < g.R->nsides; ++s)
        if (g.S->sides[s].points == best) {
            ++leaders;
            if (leader < 0) leader = s;
        }
    if (best >= target && leaders == 1) g.S->winner = int8_t(leader);
}

// Scenario.interactions: point markers, control markers, the side's bonus objective
void scenario_interactions(Game& g, int actor, const Bits& squares, Codes& out) {
    const State& S = *g.S;
    const ScenarioDef& sc = g.R->scenario;
    const Piece& a = S.pieces[actor];
    if (sc.point_markers)
        for (int i = 0; i < S.npieces; ++i) {
            const Piece& p = S.pieces[i];
            if (p.role == R_POINT && p.square >= 0 && squares.test(p.square)) out.push_back(code(C_INTERACT, i));
        }
    if (sc.control && a.square >= 0) {
        int markers[8];
        int nm = 0;
        bool free = false;
        for (int i = 0; i < S.npieces; ++i)
            if (S.pieces[i].role == R_CONTROL) {
                markers[nm++] = i;
                if (S.pieces[i].square < 0) free = true;
            }
        for (size_t ai = 0; ai < g.R->control_areas.size(); ++ai) {
            const auto& area = g.R->control_areas[ai].second;
            bool inside = false;
            for (int16_t sq : area)
                if (sq == a.square) inside = true;
            if (!inside || !free) continue;
            bool taken = false;
            for (int m = 0; m < nm; ++m)
                for (int16_t sq : area)
                    if (S.pieces[markers[m]].square == sq) taken = true;
            if (taken) continue;
            for (int16_t sq : area) out.push_back(code(C_PLACE_CONTROL, int(ai), sq));
        }
        for (int m = 0; m < nm; ++m) {
            const Piece& p = S.pieces[markers[m]];
            if (p.square >= 0 && squares.test(p.square) && p.side != a.side)
                out.push_back(code(C_FLIP_CONTROL, markers[m]));
        }
    }
    for (int i = 0; i < S.npieces; ++i) {
        const Piece& p = S.pieces[i];
        if (p.kind == K_BONUS && p.side == a.side && p.square >= 0 && squares.test(p.square))
            out.push_back(code(C_BONUS, i));
    }
}

// Scenario.interact: True when the interaction was the scenario's
bool scenario_interact(Game& g, int actor, int32_t c) {
    State& S = *g.S;
    const Piece& a = S.pieces[actor];
    int kind = code_kind(c);
    if (kind == C_BONUS) {
        Piece& marker = S.pieces[code_a(c)];
        const BonusDef& card = g.R->bonuses[g.R->bonus_of_string[marker.ref]];
        marker.square = -1;
        Event e = ev(E_BONUS_COMPLETED);
        e.piece = a.id;
        e.side = side_str(g, a.side);
        e.name = card.name;
        e.number = card.points;
        emit(g, e);
        gain(g, a.side, card.points, card.name);
        return true;
    }
    if (kind == C_INTERACT) {
        int pi = code_a(c);
        Piece& marker = S.pieces[pi];
        if (!g.R->scenario.point_markers || marker.role != R_POINT) return false;
        SideState& side = S.sides[a.side];
        marker.square = -1;
        int item = g.R->piece_track_item[pi];
        for (int k = 0; k < TRACK; ++k)
            if (side.slot_has(k, item)) side.slot_remove(k, item);
        side.slot_append(POINT_MARKER_SLOT - 1, item);
        Event e = ev(E_POINT_MARKER);
        e.piece = a.id;
        e.other = marker.id;
        e.side = side_str(g, a.side);
        e.number = POINT_MARKER_POINTS;
        emit(g, e);
        gain(g, a.side, POINT_MARKER_POINTS, g.R->point_marker_why[pi]);
        return true;
    }
    if (g.R->scenario.control && kind == C_PLACE_CONTROL) {
        for (int i = 0; i < S.npieces; ++i) {
            Piece& m = S.pieces[i];
            if (m.role != R_CONTROL || m.square >= 0) continue;
            m.square = int16_t(code_b(c));
            m.side = a.side;
            m.placed = true;
            Event e = ev(E_CONTROL_PLACED);
            e.piece = a.id;
            e.other = m.id;
            e.side = side_str(g, a.side);
            e.square = m.square;
            emit(g, e);
            return true;
        }
        return true;
    }
    if (g.R->scenario.control && kind == C_FLIP_CONTROL) {
        Piece& m = S.pieces[code_a(c)];
        if (g.R->nsides > 2) {
            m.side = a.side;
        } else {
            int other = -1;
            for (int s = 0; s < g.R->nsides; ++s)
                if (s != m.side) {
                    other = s;
                    break;
                }
            m.side = int8_t(other >= 0 ? other : m.side);
        }
        Event e = ev(E_CONTROL_FLIPPED);
        e.piece = a.id;
        e.other = m.id;
        e.side = side_str(g, m.side);
        emit(g, e);
        return true;
    }
    return false;
}

// Scenario.choices: Flags, the characters that may still return
void scenario_choices(Game& g, int decider, Codes& out) {
    int buf[MAX_PIECES];
    int n = flag_returners(g, decider, buf);
    const SideState& s = g.S->sides[decider];
    for (int i = 0; i < n; ++i)
        if (!returned_already(s, buf[i])) out.push_back(code(C_FLAG, buf[i]));
}

// Scenario.choose: a returned character goes to its starting area and scores 2 points
void scenario_choose(Game& g, int decider, int32_t c) {
    if (code_kind(c) != C_FLAG) return;
    int pi = code_a(c);
    Piece& p = g.S->pieces[pi];
    SideState& s = g.S->sides[decider];
    if (s.nreturned >= RETURN_CAP) throw std::runtime_error("too many returns");
    s.returned[s.nreturned++] = int16_t(pi);
    p.square = -1;
    Event e = ev(E_FLAG_RETURN);
    e.piece = p.id;
    e.side = side_str(g, decider);
    e.number = FLAG_POINTS;
    emit(g, e);
    gain(g, decider, FLAG_POINTS, g.R->str_misc[S_FLAG_WHY]);
    push_choice(g, decider, g.R->step_flag_return, -1, true, H_SCENARIO);
    std::vector<int16_t> back{int16_t(pi)};
    push_return(g, decider, back);
}

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

// ChampionOfThemyscira._roller: 1 the challenger's dice, 2 the defender's, 0 none
int champion_roller(Game& g, int owner, const Frame& roll) {
    const State& S = *g.S;
    const Piece& o = S.pieces[owner];
    if (o.square < 0 || track_position(g, o.side, g.R->champion_item)) return 0;
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

// challenges.before_roll: ask each hook once, in turn order, whether it wants a say
void before_roll(Game& g) {
    OwnedHook hs[64];
    int n = in_turn_order(g, hs);
    int frames_owner[64];
    uint8_t frames_hook[64];
    int nf = 0;
    Frame roll = *g.S->top();
    Frame& live = *g.S->top();
    for (int i = 0; i < n; ++i) {
        int key = hs[i].owner * H_COUNT + hs[i].hook;
        bool asked = false;
        for (int j = 0; j < live.nasked; ++j)
            if (live.asked[j] == key) asked = true;
        if (asked) continue;
        if (live.nasked >= ASKED_CAP) throw std::runtime_error("too many hooks asked");
        live.asked[live.nasked++] = int16_t(key);
        int owner = hs[i].owner;
        if (hs[i].hook == H_CHAMPION) {
            if (champion_roller(g, owner, roll)) {
                frames_owner[nf] = owner;
                frames_hook[nf++] = H_CHAMPION;
            }
        } else if (hs[i].hook == H_BLOODY) {
            if (roll.piece != owner) continue;
            const Piece& o = g.S->pieces[owner];
            if (!track_position(g, o.side, g.R->blood_item)) {
                track_place(g, o.side, g.R->blood_item, BLOOD_SLOT);
                continue;
            }
            frames_owner[nf] = owner;
            frames_hook[nf++] = H_BLOODY;
        }
    }
    for (int i = nf - 1; i >= 0; --i) {
        const Piece& o = g.S->pieces[frames_owner[i]];
        if (frames_hook[i] == H_CHAMPION)
            push_choice(g, o.side, g.R->step_champion, frames_owner[i], true, H_CHAMPION);
        else
            push_choice(g, o.side, g.R->step_blood, frames_owner[i], false, H_BLOODY);
    }
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
    track_place(g, v.side, g.R->piece_track_item[victim], KNOCKED_OUT_SLOT);
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
        track_place(g, t.side, g.R->piece_track_item[roll.target], COMPANION_SLOT);
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

// --------------------------------------------------------------------------- the vocabulary

const StepDef& step_of(Game& g, int step) { return g.R->steps[step]; }

void op_options(Game& g, const Frame& cf, Codes& out);
void op_apply(Game& g, const Frame& cf, int piece, int32_t c);
bool possible_target_from(Game& g, int pi, int seq, int from);

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

// vocabulary.interact_targets: the scenario's things and what traits offer (rival Tunnels)
void interact_targets(Game& g, int pi, bool only_point, Codes& out) {
    const Piece& p = g.S->pieces[pi];
    if (p.square < 0) return;
    Bits squares = reach_set(g, pi);
    size_t start = out.size();
    scenario_interactions(g, pi, squares, out);
    if (!only_point) {
        OwnedHook hs[64];
        int n = all_hooks(g, hs);
        for (int i = 0; i < n; ++i) {
            if (hs[i].hook != H_FORBIDDEN) continue;
            const Piece& owner = g.S->pieces[hs[i].owner];
            if (p.side == owner.side) continue;
            int toks[MAX_PIECES];
            int nt = tokens_of(g, owner.side, R_TUNNEL, toks);
            for (int t = 0; t < nt; ++t) {
                const Piece& tk = g.S->pieces[toks[t]];
                if (tk.square >= 0 && squares.test(tk.square)) out.push_back(code(C_INTERACT, toks[t]));
            }
        }
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
        if (is_point_marker_choice(g, c)) react_senses(g, pi);
        return;
    }
    OwnedHook hs[64];
    int n = all_hooks(g, hs);
    for (int i = 0; i < n; ++i) {
        if (hs[i].hook != H_FORBIDDEN || code_kind(c) != C_INTERACT) continue;
        const Piece& owner = g.S->pieces[hs[i].owner];
        Piece& tk = g.S->pieces[code_a(c)];
        if (!(tk.role == R_TUNNEL && tk.side == owner.side && (tk.kind == K_TOKEN || tk.kind == K_MINION)))
            continue;
        tk.square = -1;
        Event e = ev(E_TOKEN_DISCARDED);
        e.piece = g.S->pieces[pi].id;
        e.other = tk.id;
        e.name = g.R->str_misc[S_TUNNEL];
        e.rule = g.R->str_misc[S_FORBIDDEN_RULE];
        emit(g, e);
        return;
    }
}

// Each rival within `within` not yet challenged (She Breathes)
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
            for (int i = 0; i < nsq; ++i) out.push_back(code(C_TOKEN, toks[t], squares[i]));
            return;
        }
    for (int t = 0; t < nt; ++t)
        for (int i = 0; i < nsq; ++i)
            if (squares[i] != g.S->pieces[toks[t]].square) out.push_back(code(C_TOKEN, toks[t], squares[i]));
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
        for (int i = 0; i < n; ++i) out.push_back(code(C_MINION, toks[t], targets[i]));
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

// vocabulary.give_status, then Made Me From Dead's fourth card
void give_status(Game& g, int pi, int card) {
    Piece& p = g.S->pieces[pi];
    if (p.nstat >= STATUS_CAP) throw std::runtime_error("too many status cards");
    p.statuses[p.nstat++] = int16_t(card);
    Event e = ev(E_STATUS_GIVEN);
    e.piece = p.id;
    e.card = g.R->statuses[card].id;
    e.name = g.R->statuses[card].name;
    emit(g, e);
    uint8_t hs[32];
    int n = hooks_of(g, pi, hs);
    int frames = 0;
    for (int i = 0; i < n; ++i) {
        if (hs[i] != H_MADE_ME) continue;
        int group = g.R->statuses[card].group;
        int given = 0;
        for (int k = 0; k < p.nstat; ++k)
            if (g.R->statuses[p.statuses[k]].group == group) ++given;
        if (group >= 0 && g.R->strings[group] == "bride" && given == 4) frames += 2;
    }
    for (int i = 0; i < frames; ++i)
        push_choice(g, p.side, g.R->step_shift_off_token, pi, false, H_MADE_ME);
}

void token_off_options(Game& g, int side, Codes& out) {
    const SideState& s = g.S->sides[side];
    for (int k = 0; k < TRACK; ++k)
        for (int i = 0; i < s.nslot[k]; ++i) {
            const TrackItemDef& t = g.R->track_items[s.slot[k][i]];
            if (t.kind != T_TOKEN) continue;
            int32_t c = code(C_SHIFTOFF, t.color, k + 1);
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
            int32_t c = code(C_SHIFT, item, k + 1);
            if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
        }
}

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

// The part of each word in the pre-check: given the squares the challenger may stand on
// when the step begins, the squares after it (`next`), or whether a target is found.
enum Reach { REACH_NONE, REACH_SQUARES, REACH_TRUE, REACH_FALSE };

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
        if (code_kind(o) == C_TOKEN) targets.set(code_b(o));
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

// vocabulary._token_reach (Aquatic Ambush): lower bound with the token left where it is,
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
        case OP_PUSH_ONE:
        case OP_CHOOSE_ADJACENT:
        case OP_PLACE_MINION:
            return play_out(g, pi, step, squares, seq, rest) ? REACH_TRUE : REACH_FALSE;
        case OP_PULL_SEEN: {  // vocabulary._pull_seen_reach
            const Piece& me = S.pieces[pi];
            if (has_challenge_target(g, pi, -1)) return REACH_TRUE;
            const Bits& near = g.B().adjacent_bits[me.square];
            Codes options;
            pull_seen_options(g, pi, s.get(s.squares, 1), options);
            for (int32_t o : options)
                if (near.test(code_b(o))) return REACH_TRUE;
            return REACH_FALSE;
        }
        case OP_PLACE_SELF: {  // vocabulary._place_self_reach
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

bool possible_target(Game& g, int pi, int seq, int from) { return possible_target_from(g, pi, seq, from); }

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
            int n = knocked_down_allies_in(g, pi, reach_set(g, pi), buf);
            for (int i = 0; i < n; ++i) out.push_back(code(C_ASSIST, buf[i]));
            break;
        }
        case OP_INTERACT:
            interact_targets(g, pi, s.only_point_marker, out);
            break;
        case OP_PUSH_ONE: {
            int buf[MAX_PIECES];
            int n = adjacent_rivals(g, pi, buf);
            for (int i = 0; i < n; ++i) push_options_for(g, pi, buf[i], s.get(s.squares, 1), out);
            break;
        }
        case OP_PUSH_EACH: {
            int buf[MAX_PIECES];
            int n = adjacent_rivals(g, pi, buf);
            for (int i = 0; i < n; ++i)
                if (!in_targets_so_far(g, S.pieces[buf[i]].id)) push_options_for(g, pi, buf[i], s.get(s.squares, 1), out);
            break;
        }
        case OP_PULL_SEEN:
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
        case OP_PLACE_SELF:
            place_self_options(g, pi, s.get(s.within, 1), out);
            break;
        case OP_CHOOSE_ADJACENT: {
            Bits squares = adjacent_set(g, pi);
            for (int i = 0; i < S.npieces; ++i) {
                const Piece& p = S.pieces[i];
                if (p.square >= 0 && i != pi && knockable_kind(p.kind) && squares.test(p.square))
                    out.push_back(code(C_CARRY, i));
            }
            break;
        }
        case OP_PLACE_CHOSEN: {
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
            for (int i = 0; i < n; ++i) out.push_back(code(C_STATUS, buf[i]));
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
        case OP_PUSH_ONE:
        case OP_PUSH_EACH: {
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
        case OP_PULL_SEEN:
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
        case OP_PLACE_SELF: {
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
        case OP_CHOOSE_ADJACENT: {
            Frame* f = nearest_steps(g);
            if (f) f->chosen = S.pieces[code_a(c)].id;
            Event e = ev(E_CARRY_CHOSEN);
            e.piece = S.pieces[pi].id;
            e.other = S.pieces[code_a(c)].id;
            emit(g, e);
            break;
        }
        case OP_PLACE_CHOSEN: {
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
        case OP_STAND_UP_OR_SHIFT_OFF: {  // The Blood Is the Life
            Piece& me = S.pieces[pi];
            if (me.square < 0) {
                std::vector<int16_t> back;
                shift_off(g, me.side, g.R->piece_track_item[pi], back);
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

bool op_repeats(const StepDef& s) { return s.op == OP_CHALLENGE_EACH || s.op == OP_PUSH_EACH; }

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
        case H_CHAMPION: {
            Frame* roll = nearest_roll(g);
            if (!roll || !champion_roller(g, owner, *roll)) return;
            out.push_back(code(C_OPTION, OPT_CHAMPION_ADD));
            return;
        }
        case H_BLOODY:
            if (!track_position(g, o.side, g.R->blood_item)) return;
            out.push_back(code(C_OPTION, OPT_BLOOD_DIE));
            out.push_back(code(C_OPTION, OPT_BLOOD_PLACE));
            return;
        case H_FORBIDDEN: {
            if (o.square < 0) return;
            int sq = o.square;
            token_place_options(g, owner, R_TUNNEL, &sq, 1, out);
            return;
        }
        case H_MADE_ME:
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
        case H_CHAMPION: {  // Champion of Themyscira: the die joins the roll of her side
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
            track_place(g, o.side, g.R->champion_item, CHAMPION_SLOT);
            Event e = ev(E_DIE_ADDED);
            e.piece = S.pieces[who].id;
            e.name = g.R->str_misc[S_CHAMPION_DIE];
            e.number = CHAMPION_SLOT;
            e.rule = g.R->str_misc[S_CHAMPION_RULE];
            emit(g, e);
            return;
        }
        case H_BLOODY: {  // The Bloody Terror of Transylvania
            if (code_a(c) == OPT_BLOOD_PLACE) {
                track_place(g, o.side, g.R->blood_item, BLOOD_SLOT);
                Event e = ev(E_DIE_PLACED);
                e.piece = o.id;
                e.name = g.R->str_misc[S_BLOOD_TOKEN];
                e.number = BLOOD_SLOT;
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
        case H_FORBIDDEN:
            place_token(g, owner, c);
            return;
        case H_MADE_ME:
            token_off(g, o.side, c);
            return;
        default:
            return;
    }
}

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
        if (has_hook(g, cf.piece, cf.hook)) hook_choices(g, cf.piece, cf.hook, out);
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
        if (has_hook(g, cf.piece, cf.hook)) hook_choose(g, cf.piece, cf.hook, c);
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

// --------------------------------------------------------------------------- setup decisions

// setup_phase.secret_options: Leaders, the side to choose picks one of its characters
void secret_options(Game& g, Codes& out) {
    int side = g.S->to_act;
    if (side < 0 || g.S->sides[side].leader >= 0) return;
    int buf[MAX_PIECES];
    int n = characters(g, side, buf);
    for (int i = 0; i < n; ++i) out.push_back(code(C_LEADER, buf[i]));
}

// menus.seat_before
int seat_before(Game& g, int side) { return (side - 1 + g.R->nsides) % g.R->nsides; }

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
            if (p.kind == K_BONUS && p.side == giver && !p.placed) waiting[nw++] = i;
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

// menus.companion_options
void companion_options(Game& g, int pi, Codes& out) {
    int comps[MAX_PIECES];
    int n = companions_of(g, pi, comps);
    for (int k = 0; k < n; ++k) {
        const Piece& comp = g.S->pieces[comps[k]];
        int cdef = comp.ref >= 0 ? g.R->companion_of_string[comp.ref] : -1;
        if (cdef < 0 || comp.square < 0) continue;
        for (int16_t a : g.R->companions[cdef].actions) {
            const ItemDef& action = g.R->actions[a];
            if (action.challenge_action && !possible_target(g, comps[k], action.seq, 0)) continue;
            if (g.S->companion_used != pi) out.push_back(code(C_COMPANION, action.key, 1));
            out.push_back(code(C_COMPANION, action.key, 0));
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
                if (cost < 1 || side.pool[a.color] > 0) out.push_back(code(C_ABILITY, a.key, targets[t] + 1));
            }
            continue;
        }
        int cost = ability_cost(g, abil[i], -1);
        if (cost >= 1 && side.pool[a.color] <= 0) continue;
        if (a.challenge_action && !possible_target(g, pi, a.seq, 0)) continue;
        out.push_back(code(C_ABILITY, a.key));
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
        out.push_back(code(C_ITEM, item.key));
    }
}

// menus.action_menu: Taking a Turn, steps 2-3
void action_menu(Game& g, Codes& out) {
    State& S = *g.S;
    int pi = S.active;
    if (S.actions_left <= 0) {
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
        n = knocked_down_allies_in(g, pi, reach_set(g, pi), buf);
        for (int i = 0; i < n; ++i) out.push_back(code(C_ASSIST, buf[i]));
        interact_targets(g, pi, false, out);
        item_options(g, pi, out);
        ability_options(g, pi, out);
    }
    out.push_back(code(C_END));
}

}  // namespace

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
            out.push_back(code(C_ROLL, 1));
            out.push_back(code(C_ROLL, 0));
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
            for (int s = 0; s < g.R->nsides; ++s) out.push_back(code(C_FIRST, s));
            return;
        case P_DRAFT:
            throw std::runtime_error("the draft is played by the Python engine");
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

namespace {

// --------------------------------------------------------------------------- taking a turn

void set_first_player(Game& g, int side) {  // engine._set_first_player (no draft here)
    State& S = *g.S;
    S.first_player = int8_t(side);
    S.to_act = int8_t(side);
    S.phase = g.R->scenario.leaders ? P_SECRET : P_PLACE;
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
        shift_off(g, p.side, g.R->piece_track_item[pi], back);
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

// engine._turn_start: actions its traits add (Sneaking), decisions they ask (Forbidden Depths)
void turn_start(Game& g, int pi) {
    State& S = *g.S;
    uint8_t hs[32];
    int n = hooks_of(g, pi, hs);
    for (int i = 0; i < n; ++i) {
        const Piece& owner = S.pieces[pi];
        if (hs[i] == H_SNEAKING && owner.square >= 0) {
            bool seen = false;
            for (int k = 0; k < S.npieces && !seen; ++k) {
                const Piece& p = S.pieces[k];
                if (p.square < 0 || p.side == owner.side || !rival_kind(p.kind)) continue;
                if (can_see_piece(g, k, pi)) seen = true;
            }
            if (!seen) {
                S.actions_left += 1;
                Event e = ev(E_EXTRA_ACTION);
                e.piece = owner.id;
                e.number = 1;
                e.name = g.R->hook_title[H_SNEAKING];
                emit(g, e);
            }
        }
        if (hs[i] == H_FORBIDDEN && owner.square >= 0)
            push_choice(g, owner.side, g.R->step_tunnel, pi, true, H_FORBIDDEN);
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

// engine._after_action: Sneaking is discarded after the Invisible Man's action or rally
void after_action(Game& g, int pi, const int16_t* had, int nhad) {
    State& S = *g.S;
    Piece& p = S.pieces[pi];
    int sneaking_hooks = 0;
    if (p.card >= 0)
        for (uint8_t h : g.R->cards[p.card].hooks)
            if (h == H_SNEAKING) ++sneaking_hooks;
    for (int i = 0; i < nhad; ++i)
        for (uint8_t h : g.R->statuses[had[i]].hooks)
            if (h == H_SNEAKING) ++sneaking_hooks;
    int sneaking = g.R->str_misc[S_SNEAKING_ID] >= 0 ? g.R->status_of_string[g.R->str_misc[S_SNEAKING_ID]] : -1;
    for (int k = 0; k < sneaking_hooks; ++k) {
        if (sneaking < 0 || !p.has_status(sneaking)) continue;
        int w = 0;
        bool removed = false;
        for (int i = 0; i < p.nstat; ++i) {
            if (!removed && p.statuses[i] == sneaking) {
                removed = true;
                continue;
            }
            p.statuses[w++] = p.statuses[i];
        }
        p.nstat = uint8_t(w);
        Event e = ev(E_STATUS_DISCARDED);
        e.piece = p.id;
        e.card = g.R->str_misc[S_SNEAKING_ID];
        e.name = g.R->str_misc[S_SNEAKING_NAME];
        e.rule = g.R->str_misc[S_SNEAKING_RULE];
        emit(g, e);
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
    if (kind == C_COMPANION && code_b(c)) {
        S.companion_used = int16_t(pi);
        companion_act(g, pi, code_a(c));
        return;
    }
    // "After the Invisible Man rallies or does an action": what listens is what he had
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
        case C_BONUS:
        case C_PLACE_CONTROL:
        case C_FLIP_CONTROL:
            interact(g, pi, c);
            break;
        case C_ABILITY: {
            int ai = find_ability(g, pi, code_a(c));
            if (ai < 0) throw std::runtime_error("no such ability");
            int target = code_b(c) - 1;
            pay(g, pi, ai, target);
            const AbilityDef& a = g.R->abilities[ai];
            push_steps(g, pi, a.name, a.seq, target >= 0 ? S.pieces[target].id : -1, p.standing);
            break;
        }
        case C_COMPANION:
            companion_act(g, pi, code_a(c));
            break;
        case C_ITEM: {
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

// setup_phase.advance_secret: pass the pick on, or reveal every leader
bool advance_secret(Game& g) {
    State& S = *g.S;
    Codes options;
    secret_options(g, options);
    if (!options.empty()) return false;
    int order[MAX_SIDES];
    int n = order_from(g, S.first_player, order);
    int side = S.to_act >= 0 ? S.to_act : order[0];
    int pos = 0;
    for (int i = 0; i < n; ++i)
        if (order[i] == side) pos = i;
    if (pos + 1 < n) {
        S.to_act = int8_t(order[pos + 1]);
        return true;
    }
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

}  // namespace

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
        if (S.phase == P_DRAFT) return;
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
    } else if (kind == C_FIRST) {
        set_first_player(g, code_a(c));
        Event e = ev(E_FIRST_PLAYER);
        e.side = side_str(g, code_a(c));
        emit(g, e);
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

// menus.is_legal: `c` checked against its own kind, never the whole menu
bool is_legal(Game& g, int32_t c) {
    State& S = *g.S;
    if (S.phase == P_OVER) return false;
    int kind = code_kind(c);
    if (S.nstack) {
        const Frame& top = S.stack[S.nstack - 1];
        if (top.type == F_ROLL) return kind == C_ROLL && code_a(c) <= 1 && code_b(c) == 0;
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
    if (S.actions_left <= 0) return false;
    int pi = S.active;
    const Piece& p = S.pieces[pi];
    Codes options;
    switch (kind) {
        case C_COMPANION:
            companion_options(g, pi, options);
            break;
        case C_ABILITY:
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
                    int n = knocked_down_allies_in(g, pi, reach_set(g, pi), buf);
                    for (int i = 0; i < n; ++i)
                        if (buf[i] == code_a(c)) return true;
                    return false;
                }
                case C_ITEM:
                    item_options(g, pi, options);
                    break;
                default:
                    interact_targets(g, pi, false, options);
            }
    }
    return std::find(options.begin(), options.end(), c) != options.end();
}

}  // namespace fk
