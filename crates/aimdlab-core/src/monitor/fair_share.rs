//! Each flow's max-min fair share of the network (Bertsekas & Gallager, *Data Networks*,
//! 2nd ed., §6.5.2, the progressive filling algorithm): the rates at which no flow can get more
//! without taking from a flow that has less or as much. On a dumbbell it is the bottleneck
//! rate over the flow count; on a parking lot of equal hops, half a hop's rate for the long
//! flow and for each cross flow.
//!
//! Reading chosen (the book's model): every flow is present for the whole run and wants as
//! much as it can get (its application's own limit, an ON/OFF source or a CBR rate, is not
//! counted), and shares the wire rate of the links on its data path (the route from its
//! source to its destination; ACKs are not counted).

use crate::ids::{LinkId, NodeId};
use crate::net::routing::Routes;

/// The links of the route from `src` to `dst` (`to[l]`: the node link `l` leads to); empty if
/// there is none (the scenario's checks refuse such a flow before it runs).
pub fn data_path(routes: &Routes, to: &[NodeId], src: NodeId, dst: NodeId) -> Vec<usize> {
    let mut path = Vec::new();
    let mut at = src;
    while at != dst && path.len() <= to.len() {
        let Some(LinkId(l)) = routes.next_link(at, dst) else {
            return Vec::new();
        };
        path.push(l as usize);
        at = to[l as usize];
    }
    path
}

/// The max-min fair rate of each flow, bits/s, given each flow's path (link indices) and each
/// link's rate: progressive filling. Repeatedly, the link whose remaining rate shared among its
/// flows not yet fixed is smallest fixes those flows at that share, and its rate is taken from
/// every other link they cross. A flow with no link gets infinity. The links are kept in a
/// heap by their current share, so the work is O(P log L) for paths of total length P over L
/// links, whatever the number of distinct shares.
pub fn max_min_shares_bps(paths: &[Vec<usize>], link_rates_bps: &[f64]) -> Vec<f64> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    let links = link_rates_bps.len();
    let mut remaining = link_rates_bps.to_vec();
    let mut share = vec![f64::INFINITY; paths.len()];
    let mut fixed = vec![false; paths.len()];
    let mut on_link: Vec<Vec<usize>> = vec![Vec::new(); links];
    for (f, path) in paths.iter().enumerate() {
        for &l in path {
            on_link[l].push(f);
        }
    }
    let mut open: Vec<usize> = on_link.iter().map(Vec::len).collect();
    // (share as ordered bits — shares are ≥ 0, whose bit patterns order as the numbers do —,
    // link, the link's version when pushed): an entry is stale once the link has changed.
    let level = |remaining: f64, open: usize| (remaining.max(0.0) / open as f64).to_bits();
    let mut version = vec![0u64; links];
    let mut heap: BinaryHeap<Reverse<(u64, usize, u64)>> = (0..links).filter(|&l| open[l] > 0).map(|l| Reverse((level(remaining[l], open[l]), l, 0))).collect();
    while let Some(Reverse((bits, tightest, v))) = heap.pop() {
        if v != version[tightest] || open[tightest] == 0 {
            continue;
        }
        let rate = f64::from_bits(bits);
        let mut touched = Vec::new();
        for &f in &on_link[tightest] {
            if fixed[f] {
                continue;
            }
            fixed[f] = true;
            share[f] = rate;
            for &l in &paths[f] {
                remaining[l] -= rate;
                open[l] -= 1;
                touched.push(l);
            }
        }
        touched.sort_unstable();
        touched.dedup();
        for l in touched {
            version[l] += 1;
            if open[l] > 0 {
                heap.push(Reverse((level(remaining[l], open[l]), l, version[l])));
            }
        }
    }
    share
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dumbbell_shares_its_bottleneck_equally() {
        // Three flows: each its own access link (100), all through link 3 (10).
        let paths = vec![vec![0, 3], vec![1, 3], vec![2, 3]];
        let shares = max_min_shares_bps(&paths, &[100.0, 100.0, 100.0, 10.0]);
        for s in shares {
            assert!((s - 10.0 / 3.0).abs() < 1e-12);
        }
    }

    #[test]
    fn a_parking_lot_gives_the_long_flow_and_each_cross_flow_half_a_hop() {
        // Hops 0, 1, 2 of 10; the long flow crosses all three, cross flow i hop i.
        let paths = vec![vec![0, 1, 2], vec![0], vec![1], vec![2]];
        assert_eq!(max_min_shares_bps(&paths, &[10.0, 10.0, 10.0]), vec![5.0, 5.0, 5.0, 5.0]);
    }

    #[test]
    fn many_distinct_shares_are_filled_in_order() {
        // Flow i has its own access link of rate i + 1 and all share a link of rate 1000:
        // the slow ones are held by their access, the rest split what they leave.
        let n = 2000;
        let paths: Vec<Vec<usize>> = (0..n).map(|i| vec![i, n]).collect();
        let mut rates: Vec<f64> = (0..n).map(|i| (i + 1) as f64).collect();
        rates.push(1000.0);
        let shares = max_min_shares_bps(&paths, &rates);
        let total: f64 = shares.iter().sum();
        assert!((total - 1000.0).abs() < 1e-6, "the shared link is filled: {total}");
        let cap = shares.iter().cloned().fold(0.0, f64::max);
        for (i, s) in shares.iter().enumerate() {
            assert!(*s <= (i + 1) as f64 + 1e-9 && (*s == (i + 1) as f64 || (*s - cap).abs() < 1e-9), "flow {i}: {s}");
        }
    }

    #[test]
    fn what_a_constrained_flow_leaves_goes_to_the_others() {
        // Flow 0 crosses a slow link (2) and the shared one (10); flow 1 only the shared one.
        let paths = vec![vec![0, 1], vec![1]];
        assert_eq!(max_min_shares_bps(&paths, &[2.0, 10.0]), vec![2.0, 8.0]);
    }
}
