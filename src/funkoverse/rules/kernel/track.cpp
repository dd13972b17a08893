// The cooldown track: placing, shifting down and off, cooldown (funkoverse.rules.track).
#include "rules.hpp"

namespace fk {

// --------------------------------------------------------------------------- the cooldown track

// track.place
void track_place(Game& g, int side, int item, int number, int was) {
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
        back.push_back(int16_t(piece_at(g, t.piece)));
    } else if (t.kind == T_POINT) {
        Piece& marker = g.S->pieces[piece_at(g, t.piece)];
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
void shift_down(Game& g, int side, int item, int amount, std::vector<int16_t>& back, int at) {
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

}  // namespace fk
