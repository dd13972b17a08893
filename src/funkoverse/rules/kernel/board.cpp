// The map's sight tables (board.Board.sight_from / _build_sight / sight_line), built once per
// map in integer arithmetic: a sight line from a square's centre to another's, the squares
// it passes through, the wall edges it crosses and the grid points it touches exactly.
#include <set>

#include "kernel.hpp"

namespace fk {

namespace {

// floor(num / den) for den > 0
long long floordiv(long long num, long long den) {
    long long q = num / den;
    if ((num % den != 0) && ((num < 0) != (den < 0))) --q;
    return q;
}

struct Line {
    std::vector<std::pair<int, int>> squares, v_edges, h_edges, points;
};

// board.sight_line(dx, dy): the crossings of the line (1/2 + s*dx, 1/2 + s*dy), 0 <= s <= 1.
// A vertical grid line x = k is crossed at s = (2k - 1) / (2 dx), a horizontal y = m at
// s = (2m - 1) / (2 dy); they are compared as fractions.
Line sight_line(int dx, int dy) {
    struct Cross {
        long long num, den;  // s = num / den, den > 0
        bool has_k, has_m;   // a vertical / horizontal grid line is crossed there
        int k, m;            // which (0 is a grid line too when dx or dy < 0)
    };
    std::vector<Cross> cs;
    auto add = [&](long long num, long long den, bool is_k, int v) {
        if (den < 0) num = -num, den = -den;
        for (auto& c : cs)
            if (c.num * den == num * c.den) {
                if (is_k) c.has_k = true, c.k = v;
                else c.has_m = true, c.m = v;
                return;
            }
        Cross c{num, den, false, false, 0, 0};
        if (is_k) c.has_k = true, c.k = v;
        else c.has_m = true, c.m = v;
        cs.push_back(c);
    };
    if (dx > 0)
        for (int k = 1; k <= dx; ++k) add(2 * k - 1, 2 * dx, true, k);
    else if (dx < 0)
        for (int k = dx + 1; k <= 0; ++k) add(2 * k - 1, 2 * dx, true, k);
    if (dy > 0)
        for (int m = 1; m <= dy; ++m) add(2 * m - 1, 2 * dy, false, m);
    else if (dy < 0)
        for (int m = dy + 1; m <= 0; ++m) add(2 * m - 1, 2 * dy, false, m);
    std::sort(cs.begin(), cs.end(),
              [](const Cross& a, const Cross& b) { return a.num * b.den < b.num * a.den; });
    int sx = (dx > 0) - (dx < 0), sy = (dy > 0) - (dy < 0);
    int x = 0, y = 0;
    Line line;
    for (auto& c : cs) {
        if (c.has_k && c.has_m) {
            line.points.push_back({c.k, c.m});
            x += sx;
            y += sy;
        } else if (c.has_k) {
            // row: floor(1/2 + s*dy) = floor((den + 2*num*dy) / (2*den))
            int row = int(floordiv(c.den + 2 * c.num * dy, 2 * c.den));
            line.v_edges.push_back({c.k, row});
            x += sx;
        } else {
            int col = int(floordiv(c.den + 2 * c.num * dx, 2 * c.den));
            line.h_edges.push_back({col, c.m});
            y += sy;
        }
        line.squares.push_back({x, y});
    }
    if (!line.squares.empty()) line.squares.pop_back();  // the target itself
    return line;
}

}  // namespace

void Board::build_sight(const std::vector<std::pair<int, int>>& wall_list,
                        const std::vector<std::pair<int, int>>& point_list) {
    int w = width, h = height;
    std::set<std::pair<int, int>> walls(wall_list.begin(), wall_list.end());
    std::set<std::pair<int, int>> points(point_list.begin(), point_list.end());
    // lines depend only on (dx, dy): built once each
    std::vector<Line> lines((2 * w - 1) * (2 * h - 1));
    for (int dy = -(h - 1); dy <= h - 1; ++dy)
        for (int dx = -(w - 1); dx <= w - 1; ++dx)
            lines[(dy + h - 1) * (2 * w - 1) + dx + w - 1] = sight_line(dx, dy);
    base.assign(n, Bits());
    between.assign(n, {});
    shadow.assign(n, {});
    has_shadow.assign(n, {});
    for (int origin = 0; origin < n; ++origin) {
        int ox = origin % w, oy = origin / w;
        auto& betw = between[origin];
        betw.assign(n, {});
        Bits& b = base[origin];
        for (int ty = 0; ty < h; ++ty)
            for (int tx = 0; tx < w; ++tx) {
                int t = ty * w + tx;
                const Line& line = lines[(ty - oy + h - 1) * (2 * w - 1) + tx - ox + w - 1];
                bool cut = false;
                for (auto& p : line.points)
                    if (points.count({ox + p.first, oy + p.second})) {
                        cut = true;
                        break;
                    }
                if (cut) continue;
                for (auto& e : line.v_edges) {
                    int a = (oy + e.second) * w + ox + e.first - 1;
                    if (walls.count({a, a + 1})) {
                        cut = true;
                        break;
                    }
                }
                if (cut) continue;
                for (auto& e : line.h_edges) {
                    int a = (oy + e.second - 1) * w + ox + e.first;
                    if (walls.count({a, a + w})) {
                        cut = true;
                        break;
                    }
                }
                if (cut) continue;
                std::vector<int16_t> crossed;
                for (auto& s : line.squares) crossed.push_back(int16_t((oy + s.second) * w + ox + s.first));
                betw[t] = crossed;
                int cheb = std::max(std::abs(tx - ox), std::abs(ty - oy));
                if (obscured.test(t) && cheb > 1) continue;  // Obscured Terrain
                bool through = false;
                for (int16_t s : crossed)
                    if (obscured.test(s)) through = true;
                if (through) continue;
                b.set(t);
            }
        auto& sh = shadow[origin];
        sh.assign(n, Bits());
        auto& hs = has_shadow[origin];
        hs.assign(n, 0);
        b.each([&](int t) {
            for (int16_t s : betw[t]) {
                sh[s].set(t);
                hs[s] = 1;
            }
        });
    }
}

}  // namespace fk
