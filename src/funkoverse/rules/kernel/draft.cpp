// Scenario Setup, step 5 as decisions: choosing characters and items, in secret or openly,
// then the reveal that makes the chosen teams' pieces (funkoverse.rules.setup_phase).
#include "rules.hpp"

namespace fk {

// --------------------------------------------------------------------------- choosing

namespace {

bool picked(const SideState& s, const DraftDef& D, int entry) {
    for (int k = 0; k < s.npicks; ++k)
        if (D.pool[s.picks[k]].id == D.pool[entry].id) return true;
    return false;
}

bool taken(Game& g, int entry) {  // setup_phase._taken: an open draft shares one collection
    if (g.R->draft.secret) return false;
    for (int s = 0; s < g.R->nsides; ++s)
        if (picked(g.S->sides[s], g.R->draft, entry)) return true;
    return false;
}

bool given(const SideState& s, int item) {
    for (int k = 0; k < s.ngifts; ++k)
        if (s.gift_item[k] == item) return true;
    return false;
}

}  // namespace

// setup_phase.draft_options: the characters, then the items, the side to choose may take
void draft_options(Game& g, Codes& out) {
    const DraftDef& D = g.R->draft;
    int side = g.S->to_act;
    if (!g.R->has_draft || side < 0) return;
    const SideState& mine = g.S->sides[side];
    if (mine.npicks < D.size) {
        bool holder = false;  // someone who may hold an item (Item Setup: not a basic character)
        for (int k = 0; k < mine.npicks; ++k)
            if (!D.pool[mine.picks[k]].basic) holder = true;
        bool needs_holder = D.items > 0 && !holder && mine.npicks == D.size - 1;
        for (int e = 0; e < int(D.pool.size()); ++e) {
            const DraftCard& c = D.pool[e];
            if (taken(g, e) || picked(mine, D, e)) continue;
            bool same_name = false;  // Mixing Games: characters with the same name are not allies
            for (int k = 0; k < mine.npicks; ++k)
                if (D.pool[mine.picks[k]].name == c.name) same_name = true;
            if (same_name || (needs_holder && c.basic)) continue;
            out.push_back(code(C_PICK, D.first[e]));
        }
        return;
    }
    if (mine.ngifts >= D.items) return;
    for (const DraftItem& it : D.item_pool) {
        if (given(mine, it.item)) continue;
        bool used = false;
        if (!D.secret)
            for (int s = 0; s < g.R->nsides; ++s)
                if (given(g.S->sides[s], it.item)) used = true;
        if (used) continue;
        for (int k = 0; k < mine.npicks; ++k)
            if (!D.pool[mine.picks[k]].basic) out.push_back(code(C_GIVE, it.item, D.first[mine.picks[k]]));
    }
}

// setup_phase.apply_draft: a pick or an item given, named in a secret of that side's
void apply_draft(Game& g, int32_t c) {
    const DraftDef& D = g.R->draft;
    int side = g.S->to_act;
    SideState& mine = g.S->sides[side];
    if (code_kind(c) == C_PICK) {
        if (mine.npicks >= PICK_CAP) throw std::runtime_error("too many picks");
        const DraftCard& card = D.pool[code_a(c)];
        mine.picks[mine.npicks++] = int8_t(code_a(c));
        Event e = ev(E_PICKED);
        e.side = side_str(g, side);
        e.card = card.id;
        e.name = card.name;
        e.secret = D.secret;
        emit(g, e);
        return;
    }
    if (mine.ngifts >= GIFT_CAP) throw std::runtime_error("too many items given");
    const ItemDef& item = g.R->items[code_a(c)];
    mine.gift_item[mine.ngifts] = int16_t(code_a(c));
    mine.gift_holder[mine.ngifts++] = int8_t(code_b(c));
    Event e = ev(E_ITEM_CHOSEN);
    e.side = side_str(g, side);
    e.card = item.id;
    e.name = item.name;
    e.other = D.pool[code_b(c)].id;
    e.secret = D.secret;
    emit(g, e);
}

// --------------------------------------------------------------------------- the reveal

namespace {

// state.pieces[id] = piece: a piece of that id keeps its place, a new one goes last
Piece& make_piece(Game& g, int number) {
    State& S = *g.S;
    int at = piece_at(g, number);
    if (at < 0) {
        if (S.npieces >= MAX_PIECES) throw std::runtime_error("too many pieces");
        at = S.npieces++;
    }
    Piece& p = S.pieces[at];
    p = Piece();
    p.id = g.R->piece_id[number];
    p.rank = g.R->piece_rank[number];
    p.nstat = p.nitems = 0;
    return p;
}

void make_tokens(Game& g, int side, int16_t owner, const std::vector<DraftToken>& tokens) {
    for (const DraftToken& t : tokens) {
        Piece& tk = make_piece(g, t.piece);
        tk.side = int8_t(side);
        tk.kind = t.kind;
        tk.role = t.role;
        tk.defense = t.defense;
        tk.owner = owner;
    }
}

}  // namespace

// setup_phase.reveal_draft + create_pieces: both commit, then both are revealed; the chosen
// teams' pieces (Setup, steps 6-7): characters in the order picked, each with its tokens
// and the tokens of the items it holds, and the ability token pool
void reveal_draft(Game& g) {
    State& S = *g.S;
    const DraftDef& D = g.R->draft;
    int n = g.R->nsides;
    for (int s = 0; s < n; ++s) {
        const SideState& side = S.sides[s];
        Event e = ev(E_TEAM_REVEALED);
        e.side = side_str(g, s);
        e.nnames = side.npicks;
        for (int k = 0; k < side.npicks; ++k) e.names[k] = D.pool[side.picks[k]].name;
        emit(g, e);
    }
    for (int s = 0; s < n; ++s) {
        SideState& side = S.sides[s];
        for (int k = 0; k < side.npicks; ++k) {
            const DraftCard& c = D.pool[side.picks[k]];
            bool twice = false;  // both sides have it: "id-side" tells them apart
            for (int o = 0; o < n; ++o)
                if (o != s && picked(S.sides[o], D, side.picks[k])) twice = true;
            Piece& p = make_piece(g, twice ? c.own[s] : c.plain);
            const CardDef& card = g.R->cards[c.card];
            p.card = c.card;
            p.side = int8_t(s);
            p.kind = c.basic ? K_BASIC : K_CHARACTER;
            p.defense = int8_t(card.defense);
            p.elusive = card.elusive;
            for (int i = 0; i < side.ngifts; ++i)
                if (D.pool[side.gift_holder[i]].id == c.id) p.items[p.nitems++] = side.gift_item[i];
            int16_t owner = p.id;
            int16_t items[ITEM_CAP];
            int nitems = p.nitems;
            std::copy(p.items, p.items + nitems, items);
            for (uint8_t color : c.dots) side.pool_add(color, 1);
            make_tokens(g, s, owner, c.tokens[s]);
            for (int i = 0; i < nitems; ++i) {
                int it = D.item_tokens[items[i]];
                if (it >= 0) make_tokens(g, s, owner, D.item_pool[it].tokens[s]);
            }
        }
    }
    S.to_act = S.first_player;
    S.phase = g.R->scenario.leaders ? P_SECRET : P_PLACE;
}

// setup_phase.advance_draft: pass the choice on, or reveal when everyone has chosen
bool advance_draft(Game& g) {
    Codes options;
    draft_options(g, options);
    if (!options.empty()) return false;
    if (!pass_on(g)) reveal_draft(g);
    return true;
}

}  // namespace fk
