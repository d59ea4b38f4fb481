/* Ultimate Texas Hold 'Em base game (Ante, Blind, Play), exact house edge under the optimal
 * strategy: a hand-written C peer of croupier's solver (benchmarks/bench_solvers.py).
 *
 * Rules: Ante = Blind = 1; preflop check or play 4x/3x; flop check or 2x; river 1x or fold
 * (losing Ante and Blind).  Dealer qualifies with a pair or better (else the Ante pushes).
 * Higher hand wins Ante (if the dealer qualifies) and Play 1 to 1, the Blind by table A
 * (royal 500, straight flush 50, quads 10, full house 3, flush 3/2, straight 1, else push);
 * a tie pushes all; a loss loses Ante (if the dealer qualifies), Play and Blind.
 *
 * What it does (the competent-C-author version, the same counting as croupier's):
 *  - the 1,755 flops up to suit renaming, each with its weight (22,100 flops in all);
 *  - per flop, every turn-and-river pair (1,176) makes a board; on each board the 1,081
 *    holdings of the 47 cards left are ranked (the non-flush value once per rank pair), sorted
 *    by strength (two-pass radix sort on dense strengths) and swept upwards once: with cnt[c]
 *    the holdings already passed that hold card c, the dealer holdings disjoint from a holding
 *    and below it are passed - cnt[a] - cnt[b]; so each holding gets its 990 dealer holdings
 *    split into wins / ties / losses, dealer qualifying or not, in linear time;
 *  - the river decision, then per holding the flop decision from the sums over boards, then the
 *    preflop decision per holding from the sums over flops (weighted).
 * It does not use the flop's own suit symmetry for the turn and river (croupier does).
 * All sums are exact 64-bit integers (values scaled by 2 for the 3/2 Blind line).
 *
 * Output: "expected NUM/DEN" (the mean net per unit Ante, reduced) and the seconds.
 * Build: gcc -O2 -o uth uth.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int64_t i64;

enum { HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH };
#define CAT_SHIFT 20
#define S 2 /* scale: the 3/2 Blind line in whole units */

static int16_t *dense_of; /* packed value (24 bits) -> dense strength */
static int dense_count, q0;
static int dense_cat[8192];

static int top_straight(int mask) { /* mask: bit r for rank r (0 = deuce); 0 if none */
    for (int hi = 12; hi >= 4; hi--)
        if (((mask >> (hi - 4)) & 0x1F) == 0x1F) return hi;
    if ((mask & 0x100F) == 0x100F) return 3; /* A-2-3-4-5: five high */
    return -1;
}

static int pack(int cat, const int *r, int n) {
    int v = cat << CAT_SHIFT;
    for (int i = 0; i < 5; i++) v |= (i < n ? r[i] : 0) << (16 - 4 * i);
    return v;
}

/* The best five-card value of 5..7 cards given by rank counts (no flush considered). */
static int plain_value(const int *cnt) {
    int mask = 0, quad = -1, trips[2] = {-1, -1}, pairs[3] = {-1, -1, -1}, nt = 0, np = 0;
    for (int r = 12; r >= 0; r--) {
        if (!cnt[r]) continue;
        mask |= 1 << r;
        if (cnt[r] == 4) quad = r;
        else if (cnt[r] == 3) trips[nt++] = r;
        else if (cnt[r] == 2 && np < 3) pairs[np++] = r;
    }
    int t[5], n = 0;
    if (quad >= 0) {
        t[n++] = quad;
        for (int r = 12; r >= 0; r--)
            if (cnt[r] && r != quad) { t[n++] = r; break; }
        return pack(QUADS, t, n);
    }
    if (nt >= 1 && (nt == 2 || np >= 1)) {
        t[0] = trips[0];
        t[1] = nt == 2 ? (trips[1] > pairs[0] ? trips[1] : pairs[0]) : pairs[0];
        return pack(FULL_HOUSE, t, 2);
    }
    int st = top_straight(mask);
    if (st >= 0) { t[0] = st; return pack(STRAIGHT, t, 1); }
    if (nt == 1) {
        t[n++] = trips[0];
        for (int r = 12; r >= 0 && n < 3; r--)
            if (cnt[r] && r != trips[0]) t[n++] = r;
        return pack(TRIPS, t, n);
    }
    if (np >= 2) {
        t[n++] = pairs[0];
        t[n++] = pairs[1];
        for (int r = 12; r >= 0; r--)
            if (cnt[r] && r != pairs[0] && r != pairs[1]) { t[n++] = r; break; }
        return pack(TWO_PAIR, t, n);
    }
    if (np == 1) {
        t[n++] = pairs[0];
        for (int r = 12; r >= 0 && n < 4; r--)
            if (cnt[r] && r != pairs[0]) t[n++] = r;
        return pack(PAIR, t, n);
    }
    for (int r = 12; r >= 0 && n < 5; r--)
        if (cnt[r]) t[n++] = r;
    return pack(HIGH, t, n);
}

static int flush_value(int mask) { /* ranks of one suit, at least five */
    int st = top_straight(mask), t[5], n = 0;
    if (st >= 0) { t[0] = st; return pack(STRAIGHT_FLUSH, t, 1); }
    for (int r = 12; r >= 0 && n < 5; r--)
        if (mask >> r & 1) t[n++] = r;
    return pack(FLUSH, t, 5);
}

static int value_of(const int *cards, int n) {
    int cnt[13] = {0}, sm[4] = {0}, sc[4] = {0};
    for (int i = 0; i < n; i++) {
        cnt[cards[i] >> 2]++;
        sm[cards[i] & 3] |= 1 << (cards[i] >> 2);
        sc[cards[i] & 3]++;
    }
    int v = plain_value(cnt);
    for (int s = 0; s < 4; s++)
        if (sc[s] >= 5) { int f = flush_value(sm[s]); if (f > v) v = f; }
    return v;
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

static void build_dense(void) { /* every five-card value, in order */
    dense_of = malloc(sizeof(int16_t) << 24);
    static int seen[1 << 16];
    int ns = 0, c[5];
    char *mark = calloc(1 << 24, 1);
    for (c[0] = 0; c[0] < 52; c[0]++)
        for (c[1] = c[0] + 1; c[1] < 52; c[1]++)
            for (c[2] = c[1] + 1; c[2] < 52; c[2]++)
                for (c[3] = c[2] + 1; c[3] < 52; c[3]++)
                    for (c[4] = c[3] + 1; c[4] < 52; c[4]++) {
                        int v = value_of(c, 5);
                        if (!mark[v]) { mark[v] = 1; seen[ns++] = v; }
                    }
    qsort(seen, ns, sizeof(int), cmp_int);
    for (int i = 0; i < ns; i++) {
        dense_of[seen[i]] = (int16_t)i;
        dense_cat[i] = seen[i] >> CAT_SHIFT;
    }
    dense_count = ns;
    q0 = 0;
    while (dense_cat[q0] < PAIR) q0++;
    free(mark);
}

static int blind_pay(int strength) { /* table A, times S; royal = the ace-high straight flush */
    int cat = dense_cat[strength];
    if (strength == dense_count - 1) return 500 * S;
    switch (cat) {
    case STRAIGHT_FLUSH: return 50 * S;
    case QUADS: return 10 * S;
    case FULL_HOUSE: return 3 * S;
    case FLUSH: return 3;
    case STRAIGHT: return 1 * S;
    default: return 0;
    }
}

static int pidx[52][52];
static int blind_of[8192];

/* per flop and holding: sums over boards of the Ante+Blind part, the Play-per-1x part and the
 * river's best value */
static i64 acc_ab[1326], acc_p[1326], acc_r[1326];
/* per starting-hand class (169: every holding of a class has the same sums over all flops, so
 * the sums over the flop classes, weighted, are taken per class): sums over flops */
static i64 tot_ab[169], tot_p[169], tot_f[169];
static int class_of[1326];

static void solve_board(const int *board, const int *rem /* 47 */) {
    int cnt[13] = {0}, sm[4] = {0}, sc[4] = {0};
    for (int i = 0; i < 5; i++) {
        cnt[board[i] >> 2]++;
        sm[board[i] & 3] |= 1 << (board[i] >> 2);
        sc[board[i] & 3]++;
    }
    int fsuit = -1;
    for (int s = 0; s < 4; s++)
        if (sc[s] >= 3) fsuit = s;
    int pv[13][13];
    for (int r1 = 0; r1 < 13; r1++)
        for (int r2 = r1; r2 < 13; r2++) {
            if (cnt[r1] + (r1 == r2) * 2 > 4 || cnt[r1] + 1 > 4 || cnt[r2] + 1 > 4) {
                pv[r1][r2] = pv[r2][r1] = 0;
                continue;
            }
            cnt[r1]++; cnt[r2]++;
            pv[r1][r2] = pv[r2][r1] = dense_of[plain_value(cnt)];
            cnt[r1]--; cnt[r2]--;
        }
    static int val[1081], ha[1081], hb[1081];
    int n = 0;
    for (int i = 0; i < 47; i++)
        for (int j = i + 1; j < 47; j++) {
            int a = rem[i], b = rem[j], v = pv[a >> 2][b >> 2];
            if (fsuit >= 0) {
                int extra = ((a & 3) == fsuit) + ((b & 3) == fsuit);
                if (sc[fsuit] + extra >= 5) {
                    int m = sm[fsuit];
                    if ((a & 3) == fsuit) m |= 1 << (a >> 2);
                    if ((b & 3) == fsuit) m |= 1 << (b >> 2);
                    int f = dense_of[flush_value(m)];
                    if (f > v) v = f;
                }
            }
            val[n] = v; ha[n] = i; hb[n] = j; n++;
        }
    /* radix sort by strength (7 + 6 bits) */
    static int tmp[1081], order[1081];
    int lo[129] = {0}, hi[65] = {0};
    for (int o = 0; o < n; o++) { lo[(val[o] & 127) + 1]++; hi[(val[o] >> 7) + 1]++; }
    for (int k = 0; k < 128; k++) lo[k + 1] += lo[k];
    for (int k = 0; k < 64; k++) hi[k + 1] += hi[k];
    for (int o = 0; o < n; o++) tmp[lo[val[o] & 127]++] = o;
    for (int k = 0; k < n; k++) { int o = tmp[k]; order[hi[val[o] >> 7]++] = o; }
    /* sweep */
    int c47[47] = {0}, nqc[47] = {0}, passed = 0, nq_total = -1;
    static int lt[1081], eq[1081];
    for (int k = 0; k < n;) {
        int v = val[order[k]], e = k + 1;
        while (e < n && val[order[e]] == v) e++;
        if (nq_total < 0 && v >= q0) { nq_total = passed; memcpy(nqc, c47, sizeof c47); }
        for (int g = k; g < e; g++) { int o = order[g]; lt[o] = passed - c47[ha[o]] - c47[hb[o]]; }
        for (int g = k; g < e; g++) { int o = order[g]; c47[ha[o]]++; c47[hb[o]]++; }
        passed += e - k;
        for (int g = k; g < e; g++) {
            int o = order[g];
            eq[o] = passed - c47[ha[o]] - c47[hb[o]] + 1 - lt[o];
        }
        k = e;
    }
    if (nq_total < 0) { nq_total = passed; memcpy(nqc, c47, sizeof c47); }
    const i64 fold = -2 * S * 990;
    for (int o = 0; o < n; o++) {
        int v = val[o];
        int nq = nq_total - nqc[ha[o]] - nqc[hb[o]] + (v < q0);
        int gt = 990 - lt[o] - eq[o], wq, wn, lq, ln;
        if (v >= q0) { wq = lt[o] - nq; wn = nq; lq = gt; ln = 0; }
        else { ln = nq - lt[o] - eq[o]; wq = 0; wn = lt[o]; lq = gt - ln; }
        int w = wq + wn, l = lq + ln;
        i64 ab = (i64)S * (wq - lq) + (i64)blind_of[v] * w - (i64)S * l;
        i64 p = (i64)S * (w - l);
        i64 r = ab + p > fold ? ab + p : fold;
        int h = pidx[rem[ha[o]]][rem[hb[o]]];
        acc_ab[h] += ab; acc_p[h] += p; acc_r[h] += r;
    }
}

static int canon3(int a, int b, int c, const int perms[24][4]) { /* least colex image */
    int best = 1 << 30;
    for (int g = 0; g < 24; g++) {
        int x[3] = {4 * (a >> 2) + perms[g][a & 3], 4 * (b >> 2) + perms[g][b & 3],
                    4 * (c >> 2) + perms[g][c & 3]};
        for (int i = 0; i < 3; i++)
            for (int j = i + 1; j < 3; j++)
                if (x[j] < x[i]) { int t = x[i]; x[i] = x[j]; x[j] = t; }
        int key = x[0] + 52 * x[1] + 52 * 52 * x[2];
        if (key < best) best = key;
    }
    return best;
}

static i64 gcd(i64 a, i64 b) { if (a < 0) a = -a; while (b) { i64 t = a % b; a = b; b = t; } return a; }

int main(int argc, char **argv) {
    int max_classes = argc > 1 ? atoi(argv[1]) : 1 << 30; /* a partial run, for tests */
    clock_t start = clock();
    build_dense();
    for (int s = 0; s < dense_count; s++) blind_of[s] = blind_pay(s);
    for (int b = 0, h = 0; b < 52; b++)
        for (int a = 0; a < b; a++) {
            int hi = b >> 2, lo = a >> 2, suited = (a & 3) == (b & 3);
            class_of[h] = suited || hi == lo ? hi * 13 + lo : lo * 13 + hi;
            pidx[a][b] = pidx[b][a] = h++;
        }
    int perms[24][4], np = 0;
    for (int p0 = 0; p0 < 4; p0++)
        for (int p1 = 0; p1 < 4; p1++)
            for (int p2 = 0; p2 < 4; p2++)
                for (int p3 = 0; p3 < 4; p3++)
                    if (p0 != p1 && p0 != p2 && p0 != p3 && p1 != p2 && p1 != p3 && p2 != p3) {
                        perms[np][0] = p0; perms[np][1] = p1; perms[np][2] = p2; perms[np][3] = p3;
                        np++;
                    }
    /* flop classes and weights */
    static int weight[52 * 52 * 52];
    for (int a = 0; a < 52; a++)
        for (int b = a + 1; b < 52; b++)
            for (int c = b + 1; c < 52; c++) weight[canon3(a, b, c, perms)]++;
    int classes = 0;
    for (int key = 0; key < 52 * 52 * 52; key++) {
        if (!weight[key]) continue;
        if (classes == max_classes) break;
        classes++;
        int f[3] = {key % 52, key / 52 % 52, key / (52 * 52)};
        int live[49], nl = 0;
        for (int c = 0; c < 52; c++)
            if (c != f[0] && c != f[1] && c != f[2]) live[nl++] = c;
        memset(acc_ab, 0, sizeof acc_ab);
        memset(acc_p, 0, sizeof acc_p);
        memset(acc_r, 0, sizeof acc_r);
        for (int ti = 0; ti < 49; ti++)
            for (int ri = ti + 1; ri < 49; ri++) {
                int board[5] = {f[0], f[1], f[2], live[ti], live[ri]}, rem[47], nr = 0;
                for (int i = 0; i < 49; i++)
                    if (i != ti && i != ri) rem[nr++] = live[i];
                solve_board(board, rem);
            }
        for (int i = 0; i < 49; i++)
            for (int j = i + 1; j < 49; j++) {
                int h = pidx[live[i]][live[j]];
                i64 bet = acc_ab[h] + 2 * acc_p[h];
                i64 best = bet > acc_r[h] ? bet : acc_r[h];
                int k = class_of[h];
                tot_ab[k] += weight[key] * acc_ab[h];
                tot_p[k] += weight[key] * acc_p[h];
                tot_f[k] += weight[key] * best;
            }
    }
    i64 total = 0;
    for (int k = 0; k < 169; k++) {
        i64 best = tot_f[k], x3 = tot_ab[k] + 3 * tot_p[k], x4 = tot_ab[k] + 4 * tot_p[k];
        if (x3 > best) best = x3;
        if (x4 > best) best = x4;
        total += best;
    }
    /* deals: 1,326 holdings x C(50,3) flops x C(47,2) turn-and-river x 990 dealer holdings */
    i64 den = (i64)1326 * 19600 * 1081 * 990 * S;
    i64 g = gcd(total, den);
    printf("flop classes %d\n", classes);
    printf("expected %lld/%lld\n", (long long)(total / g), (long long)(den / g));
    printf("edge %.10f\n", -(double)total / (double)den);
    printf("seconds %.2f\n", (double)(clock() - start) / CLOCKS_PER_SEC);
    return 0;
}
