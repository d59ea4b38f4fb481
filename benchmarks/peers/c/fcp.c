/* Four Card Poker Ante/Play, exact house edge under the optimal strategy: a hand-written C peer
 * of croupier's solver (benchmarks/bench_solvers.py).
 *
 * Rules: the player's best four of five against the dealer's best four of six (one card face
 * up); fold (lose the Ante) or play 1x..3x; the higher hand wins Ante and Play 1 to 1, a tie
 * goes to the player; the Ante Bonus pays a played hand whatever the dealer holds: four of a
 * kind 25, straight flush 20, three of a kind 2 to 1.  Four-card order: high card, pair, two
 * pair, straight, flush, three of a kind, straight flush, four of a kind (ace high, or low in
 * A-2-3-4).
 *
 * What it does (the competent-C-author version): for each up-card rank (in clubs, times four),
 *  - rank every dealer hand (the up card and five of the other 51 cards, 2,349,060) once, and
 *    add it to the strength histograms of each of its subsets of 0 to 3 hidden cards, and to
 *    the completion lists of its 4-card subsets; prefix sums turn the histograms into "how many
 *    below strength j";
 *  - for each player hand (five of the 51, up to the renaming of the other three suits, with
 *    its weight), count the dealer hands disjoint from it below and at most its strength by
 *    inclusion-exclusion over the subsets of its five cards, and take the best decision.
 * All sums are exact 64-bit integers.
 *
 * Output: "expected NUM/DEN" (the mean net per unit Ante, reduced) and the seconds.
 * Build: gcc -O2 -o fcp fcp.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int64_t i64;
enum { HIGH, PAIR, TWO_PAIR, STRAIGHT, FLUSH, TRIPS, STRAIGHT_FLUSH, QUADS };
#define HIDDEN 1370754 /* C(46, 5) */

static int16_t dense_of[1 << 19];
static int dense_cat[4096], nv;
static int binom[53][6];

static int value4(const int *c) {
    int r[4], t[4];
    for (int i = 0; i < 4; i++) r[i] = c[i] >> 2;
    for (int i = 0; i < 4; i++) /* ranks descending */
        for (int j = i + 1; j < 4; j++)
            if (r[j] > r[i]) { int x = r[i]; r[i] = r[j]; r[j] = x; }
    int flush = (c[0] & 3) == (c[1] & 3) && (c[1] & 3) == (c[2] & 3) && (c[2] & 3) == (c[3] & 3);
    int distinct = r[0] != r[1] && r[1] != r[2] && r[2] != r[3];
    int top = -1;
    if (distinct && r[0] - r[3] == 3) top = r[0];
    if (distinct && r[0] == 12 && r[1] == 2 && r[2] == 1 && r[3] == 0) top = 2; /* A-2-3-4 */
    int cat;
    if (top >= 0) {
        cat = flush ? STRAIGHT_FLUSH : STRAIGHT;
        t[0] = top; t[1] = t[2] = t[3] = 0;
    } else {
        /* ranks by (count, rank) descending */
        int cnt[13] = {0};
        for (int i = 0; i < 4; i++) cnt[r[i]]++;
        int n = 0, maxc = 0, pairs = 0;
        for (int k = 4; k >= 1; k--)
            for (int x = 12; x >= 0; x--)
                if (cnt[x] == k) {
                    t[n++] = x;
                    if (k > maxc) maxc = k;
                    if (k == 2) pairs++;
                }
        while (n < 4) t[n++] = 0;
        if (maxc == 4) cat = QUADS;
        else if (maxc == 3) cat = TRIPS;
        else if (flush) { cat = FLUSH; for (int i = 0; i < 4; i++) t[i] = r[i]; }
        else if (pairs == 2) cat = TWO_PAIR;
        else if (pairs == 1) cat = PAIR;
        else cat = HIGH;
    }
    return cat << 16 | t[0] << 12 | t[1] << 8 | t[2] << 4 | t[3];
}

static int best_of(const int *c, int n) { /* dense strength of the best four of n (4..6) */
    int best = -1, h[4];
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++)
            for (int d = b + 1; d < n; d++)
                for (int e = d + 1; e < n; e++) {
                    h[0] = c[a]; h[1] = c[b]; h[2] = c[d]; h[3] = c[e];
                    int v = dense_of[value4(h)];
                    if (v > best) best = v;
                }
    return best;
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

static void build_dense(void) {
    static char mark[1 << 19];
    static int seen[4096];
    int ns = 0, c[4];
    for (c[0] = 0; c[0] < 52; c[0]++)
        for (c[1] = c[0] + 1; c[1] < 52; c[1]++)
            for (c[2] = c[1] + 1; c[2] < 52; c[2]++)
                for (c[3] = c[2] + 1; c[3] < 52; c[3]++) {
                    int v = value4(c);
                    if (!mark[v]) { mark[v] = 1; seen[ns++] = v; }
                }
    qsort(seen, ns, sizeof(int), cmp_int);
    for (int i = 0; i < ns; i++) { dense_of[seen[i]] = (int16_t)i; dense_cat[i] = seen[i] >> 16; }
    nv = ns;
}

static int bonus_of(int s) {
    switch (dense_cat[s]) {
    case QUADS: return 25;
    case STRAIGHT_FLUSH: return 20;
    case TRIPS: return 2;
    default: return 0;
    }
}

static int suit_key(const int *cards, int n, int suit) {
    int mask = 0, pop = 0;
    for (int i = 0; i < n; i++)
        if ((cards[i] & 3) == suit) { mask |= 1 << (cards[i] >> 2); pop++; }
    return pop * 8192 + mask;
}

static i64 gcd(i64 a, i64 b) { if (a < 0) a = -a; while (b) { i64 t = a % b; a = b; b = t; } return a; }

int main(int argc, char **argv) {
    int only = argc > 1 ? atoi(argv[1]) : -1; /* one up rank (0 = deuce), for tests */
    clock_t start = clock();
    for (int n = 0; n <= 52; n++)
        for (int k = 0; k <= 5; k++)
            binom[n][k] = k == 0 ? 1 : n == 0 ? 0 : binom[n - 1][k - 1] + binom[n - 1][k];
    build_dense();
    int W = nv + 1; /* row width: cum[j] = how many below strength j */
    i64 *cum0 = malloc(sizeof(i64) * W);
    int32_t *cum1 = malloc(sizeof(int32_t) * 51 * W);
    int32_t *cum2 = malloc(sizeof(int32_t) * 1275 * W);
    uint16_t *cum3 = malloc(sizeof(uint16_t) * 20825 * W);
    uint16_t *list4 = malloc(sizeof(uint16_t) * 249900 * 47);
    uint8_t *fill = malloc(249900);
    int bonus[4096];
    for (int s = 0; s < nv; s++) bonus[s] = bonus_of(s);
    i64 total = 0, situations = 0;
    for (int rank = 0; rank < 13; rank++) {
        if (only >= 0 && rank != only) continue;
        int up = 4 * rank, others[51], no = 0;
        for (int c = 0; c < 52; c++)
            if (c != up) others[no++] = c;
        memset(cum0, 0, sizeof(i64) * W);
        memset(cum1, 0, sizeof(int32_t) * 51 * W);
        memset(cum2, 0, sizeof(int32_t) * 1275 * W);
        memset(cum3, 0, sizeof(uint16_t) * 20825 * W);
        memset(fill, 0, 249900);
        int p[5], h[6];
        h[0] = up;
        /* every dealer hand, added to the tables of its subsets */
        for (p[4] = 4; p[4] < 51; p[4]++)
            for (p[3] = 3; p[3] < p[4]; p[3]++)
                for (p[2] = 2; p[2] < p[3]; p[2]++)
                    for (p[1] = 1; p[1] < p[2]; p[1]++)
                        for (p[0] = 0; p[0] < p[1]; p[0]++) {
                            for (int i = 0; i < 5; i++) h[i + 1] = others[p[i]];
                            int d = best_of(h, 6) + 1;
                            cum0[d]++;
                            for (int i = 0; i < 5; i++) {
                                cum1[p[i] * W + d]++;
                                for (int j = i + 1; j < 5; j++) {
                                    int r2 = p[i] + binom[p[j]][2];
                                    cum2[r2 * W + d]++;
                                    for (int k = j + 1; k < 5; k++)
                                        cum3[(r2 + binom[p[k]][3]) * W + d]++;
                                }
                            }
                            for (int skip = 0; skip < 5; skip++) {
                                int row = 0, m = 1;
                                for (int i = 0; i < 5; i++)
                                    if (i != skip) row += binom[p[i]][m++];
                                list4[row * 47 + fill[row]++] = (uint16_t)(d - 1);
                            }
                        }
        for (int j = 1; j < W; j++) cum0[j] += cum0[j - 1];
        for (int r = 0; r < 51; r++)
            for (int j = 1; j < W; j++) cum1[r * W + j] += cum1[r * W + j - 1];
        for (int r = 0; r < 1275; r++)
            for (int j = 1; j < W; j++) cum2[r * W + j] += cum2[r * W + j - 1];
        for (int r = 0; r < 20825; r++)
            for (int j = 1; j < W; j++) cum3[r * W + j] += cum3[r * W + j - 1];
        for (int r = 0; r < 249900; r++) { /* insertion sort of each completion list */
            uint16_t *a = list4 + r * 47;
            for (int i = 1; i < 47; i++) {
                uint16_t x = a[i];
                int j = i - 1;
                while (j >= 0 && a[j] > x) { a[j + 1] = a[j]; j--; }
                a[j + 1] = x;
            }
        }
        /* every player hand up to the renaming of suits 1..3 */
        for (p[4] = 4; p[4] < 51; p[4]++)
            for (p[3] = 3; p[3] < p[4]; p[3]++)
                for (p[2] = 2; p[2] < p[3]; p[2]++)
                    for (p[1] = 1; p[1] < p[2]; p[1]++)
                        for (p[0] = 0; p[0] < p[1]; p[0]++) {
                            int c[5];
                            for (int i = 0; i < 5; i++) c[i] = others[p[i]];
                            int k1 = suit_key(c, 5, 1), k2 = suit_key(c, 5, 2),
                                k3 = suit_key(c, 5, 3);
                            if (k1 < k2 || k2 < k3) continue;
                            int weight = k1 == k2 && k2 == k3 ? 1 : k1 == k2 || k2 == k3 ? 3 : 6;
                            int s = best_of(c, 5);
                            for (int i = 0; i < 5; i++) h[i + 1] = c[i];
                            int d6 = best_of(h, 6);
                            /* dealer hands disjoint from the player's: at most s */
                            i64 le = cum0[s + 1];
                            for (int i = 0; i < 5; i++) {
                                le -= cum1[p[i] * W + s + 1];
                                for (int j = i + 1; j < 5; j++) {
                                    int r2 = p[i] + binom[p[j]][2];
                                    le += cum2[r2 * W + s + 1];
                                    for (int k = j + 1; k < 5; k++)
                                        le -= cum3[(r2 + binom[p[k]][3]) * W + s + 1];
                                }
                            }
                            for (int skip = 0; skip < 5; skip++) {
                                int row = 0, m = 1;
                                for (int i = 0; i < 5; i++)
                                    if (i != skip) row += binom[p[i]][m++];
                                const uint16_t *a = list4 + row * 47;
                                int lo = 0, hi = 47; /* how many at most s */
                                while (lo < hi) {
                                    int mid = (lo + hi) / 2;
                                    if (a[mid] <= s) lo = mid + 1; else hi = mid;
                                }
                                le += lo;
                            }
                            if (d6 <= s) le -= 1;
                            /* the net over the hidden completions: a tie goes to the player */
                            i64 best = -(i64)HIDDEN;
                            for (int m = 1; m <= 3; m++) {
                                i64 v = (i64)(1 + m) * (2 * le - HIDDEN) + (i64)bonus[s] * HIDDEN;
                                if (v > best) best = v;
                            }
                            total += 4 * weight * best;
                            situations += 4 * weight;
                        }
    }
    i64 den = situations * HIDDEN;
    i64 g = gcd(total, den);
    printf("situations %lld\n", (long long)situations);
    printf("expected %lld/%lld\n", (long long)(total / g), (long long)(den / g));
    printf("edge %.10f\n", -(double)total / (double)den);
    printf("seconds %.2f\n", (double)(clock() - start) / CLOCKS_PER_SEC);
    return 0;
}
