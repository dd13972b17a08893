// How a game is won and scored: points, Flags, Leaders, Control (funkoverse.rules.scenario).
#include "rules.hpp"

namespace fk {

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
    int target = target_points(g);
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
        if (shown[s] && per_side(g) > 2)
            gain(g, s, 1, g.R->str_misc[S_CONTROL_SHOWING]);
    if (most && leaders == 1) gain(g, leader, 1, g.R->str_misc[S_CONTROL_MOST]);
}

// Scenario.check_winner: the most points at the end of a round, if at the target
void check_winner(Game& g) {
    int target = target_points(g);
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
        if (p.kind == K_BONUS_OBJECTIVE && p.side == a.side && p.square >= 0 && squares.test(p.square))
            out.push_back(code(C_COMPLETE_BONUS, i));
    }
}

// Scenario.interact: True when the interaction was the scenario's
bool scenario_interact(Game& g, int actor, int32_t c) {
    State& S = *g.S;
    const Piece& a = S.pieces[actor];
    int kind = code_kind(c);
    if (kind == C_COMPLETE_BONUS) {
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
        int item = piece_track_item(g, pi);
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
        if (!returned_already(s, buf[i])) out.push_back(code(C_FLAG_RETURN, buf[i]));
}

// Scenario.choose: a returned character goes to its starting area and scores 2 points
void scenario_choose(Game& g, int decider, int32_t c) {
    if (code_kind(c) != C_FLAG_RETURN) return;
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

}  // namespace fk
