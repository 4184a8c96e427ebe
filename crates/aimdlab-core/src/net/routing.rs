//! Static routing: at each node, the link towards each flow endpoint, in O(nodes + links)
//! memory for the topologies people simulate.
//!
//! Routes are shortest paths in hops. Ties go to the link listed first: at node `u`, towards
//! destination `d`, the first link `u → v` (in link order) with `dist(v, d) + 1 = dist(u, d)`.
//! Static routes override that choice for one (node, destination) pair.
//!
//! Two facts keep the tables small without changing any route:
//! - a node with a single outgoing link forwards everything on it (whatever reaches the
//!   destination from it must leave on that link), so it needs no row;
//! - a destination with a single incoming link `a → d` (a stub: every host of a dumbbell) is
//!   reached through `a`; at every other node the first link towards `d` is the first link
//!   towards `a` (distances to `d` are those to `a` plus one, and no other link enters `d`),
//!   so `d` shares `a`'s column. A destination named by a static route, or whose `a` is, keeps
//!   a column of its own, since the override is for that pair only.
//!
//! A dumbbell of N flows thus needs two rows (R1, R2) of two columns instead of (2N+2) × 2N.

use crate::ids::{LinkId, NodeId};
use std::collections::VecDeque;

/// No link: the destination cannot be reached from this node.
pub const NO_ROUTE: u32 = u32::MAX;

/// How a node forwards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Hop {
    /// It has no outgoing link.
    Nowhere,
    /// Everything leaves on its only outgoing link.
    Only(LinkId),
    /// It looks the destination's column up in this row of the table.
    Row(u32),
}

/// How a destination is found in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Column {
    /// Not a flow endpoint.
    None,
    /// Its own column.
    Own(u32),
    /// A stub: reached from `via` over `last`; elsewhere it uses `via`'s column.
    Stub { via: NodeId, last: LinkId, column: u32 },
}

/// The routes of one network, built once when the scenario is compiled.
#[derive(Clone, Debug)]
pub struct Routes {
    hop: Vec<Hop>,
    column: Vec<Column>,
    /// `rows × columns` next links (`NO_ROUTE` where none), row-major.
    table: Vec<u32>,
    columns: usize,
}

/// The size of the routing table a network will need, before it is built: (rows, columns).
pub fn table_shape(nodes: usize, links: &[(NodeId, NodeId)], endpoints: &[NodeId], static_dsts: &[NodeId]) -> (usize, usize) {
    let plan = Layout::new(nodes, links, endpoints, static_dsts);
    (plan.rows, plan.columns.len())
}

/// Which nodes get rows and which destinations get columns.
struct Layout {
    out_degree: Vec<u32>,
    rows: usize,
    /// The nodes that own a column, in column order.
    columns: Vec<NodeId>,
    column: Vec<Column>,
}

impl Layout {
    fn new(nodes: usize, links: &[(NodeId, NodeId)], endpoints: &[NodeId], static_dsts: &[NodeId]) -> Self {
        let mut out_degree = vec![0u32; nodes];
        let mut in_degree = vec![0u32; nodes];
        let mut only_in = vec![None; nodes];
        for (i, &(from, to)) in links.iter().enumerate() {
            out_degree[from.idx()] += 1;
            in_degree[to.idx()] += 1;
            only_in[to.idx()] = Some(LinkId(i as u32));
        }
        for (n, d) in in_degree.iter().enumerate() {
            if *d != 1 {
                only_in[n] = None;
            }
        }
        let mut pinned = vec![false; nodes];
        static_dsts.iter().for_each(|d| pinned[d.idx()] = true);
        let rows = out_degree.iter().filter(|&&d| d > 1).count();
        let mut column = vec![Column::None; nodes];
        let mut columns = Vec::new();
        let own = |n: NodeId, column: &mut Vec<Column>, columns: &mut Vec<NodeId>| -> u32 {
            match column[n.idx()] {
                Column::Own(c) => c,
                _ => {
                    let c = columns.len() as u32;
                    column[n.idx()] = Column::Own(c);
                    columns.push(n);
                    c
                }
            }
        };
        for &d in endpoints {
            if column[d.idx()] != Column::None {
                continue;
            }
            let stub = only_in[d.idx()].map(|l| (l, links[l.idx()].0)).filter(|&(_, via)| !pinned[d.idx()] && !pinned[via.idx()]);
            match stub {
                Some((last, via)) => {
                    let c = own(via, &mut column, &mut columns);
                    column[d.idx()] = Column::Stub { via, last, column: c };
                }
                None => {
                    own(d, &mut column, &mut columns);
                }
            }
        }
        // A stub that later serves as another stub's `via` gets a column of its own (`own`
        // replaces its `Stub` entry), which gives it exactly its own routes.
        Layout { out_degree, rows, columns, column }
    }
}

impl Routes {
    /// Routes of a network of `nodes` nodes and `links` (from, to) towards every node in
    /// `endpoints`, with `statics` = (node, destination, link) overrides.
    pub fn build(nodes: usize, links: &[(NodeId, NodeId)], endpoints: &[NodeId], statics: &[(NodeId, NodeId, LinkId)]) -> Self {
        let static_dsts: Vec<NodeId> = statics.iter().map(|s| s.1).collect();
        let layout = Layout::new(nodes, links, endpoints, &static_dsts);
        let mut hop = vec![Hop::Nowhere; nodes];
        let mut row = 0u32;
        for (i, &(from, _)) in links.iter().enumerate() {
            let n = from.idx();
            match (layout.out_degree[n], hop[n]) {
                (1, _) => hop[n] = Hop::Only(LinkId(i as u32)),
                (_, Hop::Nowhere) => {
                    hop[n] = Hop::Row(row);
                    row += 1;
                }
                _ => {}
            }
        }
        let columns = layout.columns.len();
        let mut table = vec![NO_ROUTE; layout.rows * columns];
        // One reverse breadth-first search per column: distances to its node, then at each
        // node with a row the first link (in link order) one hop closer.
        let mut incoming: Vec<Vec<u32>> = vec![Vec::new(); nodes];
        for (i, &(_, to)) in links.iter().enumerate() {
            incoming[to.idx()].push(i as u32);
        }
        let mut dist = vec![u32::MAX; nodes];
        let mut queue = VecDeque::new();
        for (c, &dst) in layout.columns.iter().enumerate() {
            dist.iter_mut().for_each(|d| *d = u32::MAX);
            dist[dst.idx()] = 0;
            queue.push_back(dst);
            while let Some(v) = queue.pop_front() {
                for &li in &incoming[v.idx()] {
                    let u = links[li as usize].0;
                    if dist[u.idx()] == u32::MAX {
                        dist[u.idx()] = dist[v.idx()] + 1;
                        queue.push_back(u);
                    }
                }
            }
            for (li, &(u, v)) in links.iter().enumerate() {
                let Hop::Row(r) = hop[u.idx()] else { continue };
                let cell = &mut table[r as usize * columns + c];
                if *cell == NO_ROUTE && dist[u.idx()] != u32::MAX && dist[v.idx()] != u32::MAX && dist[v.idx()] + 1 == dist[u.idx()] {
                    *cell = li as u32;
                }
            }
        }
        let mut routes = Routes { hop, column: layout.column, table, columns };
        for &(node, dst, link) in statics {
            if let (Hop::Row(r), Column::Own(c)) = (routes.hop[node.idx()], routes.column[dst.idx()]) {
                routes.table[r as usize * columns + c as usize] = link.0;
            }
        }
        routes
    }

    /// The link to take at `node` towards `dst`, if any.
    #[inline]
    pub fn next_link(&self, node: NodeId, dst: NodeId) -> Option<LinkId> {
        let column = match self.column[dst.idx()] {
            Column::None => return None,
            Column::Own(c) => c,
            Column::Stub { via, last, column } => {
                if node == via {
                    return Some(last);
                }
                column
            }
        };
        match self.hop[node.idx()] {
            Hop::Nowhere => None,
            Hop::Only(l) => Some(l),
            Hop::Row(r) => {
                let l = self.table[r as usize * self.columns + column as usize];
                (l != NO_ROUTE).then_some(LinkId(l))
            }
        }
    }

    /// The only outgoing link of `node`, if it has exactly one (a host of a dumbbell): every
    /// packet leaving `node` towards a flow endpoint takes it.
    pub fn only_link(&self, node: NodeId) -> Option<LinkId> {
        match self.hop[node.idx()] {
            Hop::Only(l) => Some(l),
            _ => None,
        }
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.hop.len() * std::mem::size_of::<Hop>() + self.column.len() * std::mem::size_of::<Column>() + self.table.len() * 4
    }
}

/// Heap bytes of the routes of a network with `nodes` nodes and a `rows × columns` table.
pub fn heap_bytes(nodes: usize, rows: usize, columns: usize) -> usize {
    nodes * (std::mem::size_of::<Hop>() + std::mem::size_of::<Column>()) + rows * columns * 4
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The routes of the dense algorithm this module replaces: a column for every endpoint,
    /// a row for every node, then static overrides.
    fn dense(nodes: usize, links: &[(NodeId, NodeId)], endpoints: &[NodeId], statics: &[(NodeId, NodeId, LinkId)]) -> Vec<Vec<Option<LinkId>>> {
        let mut out = vec![vec![None; nodes]; nodes];
        for &dst in endpoints {
            let mut dist = vec![u32::MAX; nodes];
            dist[dst.idx()] = 0;
            let mut q = VecDeque::from([dst]);
            while let Some(v) = q.pop_front() {
                for &(u, w) in links {
                    if w == v && dist[u.idx()] == u32::MAX {
                        dist[u.idx()] = dist[v.idx()] + 1;
                        q.push_back(u);
                    }
                }
            }
            for (li, &(u, v)) in links.iter().enumerate() {
                if dist[u.idx()] != u32::MAX && dist[v.idx()] != u32::MAX && dist[v.idx()] + 1 == dist[u.idx()] && out[u.idx()][dst.idx()].is_none() {
                    out[u.idx()][dst.idx()] = Some(LinkId(li as u32));
                }
            }
        }
        for &(n, d, l) in statics {
            out[n.idx()][d.idx()] = Some(l);
        }
        out
    }

    fn agree(nodes: usize, links: &[(NodeId, NodeId)], endpoints: &[NodeId], statics: &[(NodeId, NodeId, LinkId)]) {
        let r = Routes::build(nodes, links, endpoints, statics);
        let d = dense(nodes, links, endpoints, statics);
        // A node's only link, where it has one, is the route to every endpoint it reaches
        // (the simulator sends a host's packets on it without a look-up).
        for (u, routes_from_u) in d.iter().enumerate() {
            let out: Vec<LinkId> = (0..links.len()).filter(|&i| links[i].0.idx() == u).map(|i| LinkId(i as u32)).collect();
            assert_eq!(r.only_link(NodeId(u as u32)), (out.len() == 1).then(|| out[0]), "node {u}");
            for &dst in endpoints {
                if let (Some(only), Some(_)) = (r.only_link(NodeId(u as u32)), routes_from_u[dst.idx()]) {
                    assert_eq!(r.next_link(NodeId(u as u32), dst), Some(only), "node {u} towards {dst:?}");
                }
            }
        }
        for &dst in endpoints {
            // Follow both from every node that can reach dst; they must take the same links.
            for n in 0..nodes {
                let (mut a, mut b, mut hops) = (NodeId(n as u32), NodeId(n as u32), 0);
                while a != dst && hops <= nodes {
                    let (la, lb) = (r.next_link(a, dst), d[b.idx()][dst.idx()]);
                    if lb.is_none() {
                        break; // unreachable in the dense routes: compile reports it
                    }
                    assert_eq!(la, lb, "at node {a:?} towards {dst:?}");
                    a = links[la.unwrap().idx()].1;
                    b = a;
                    hops += 1;
                }
            }
        }
    }

    fn n(i: u32) -> NodeId {
        NodeId(i)
    }

    #[test]
    fn a_dumbbell_needs_two_rows_of_two_columns() {
        // r1 = 0, r2 = 1, then (s_i, d_i) pairs, links as the dumbbell builder lists them.
        let flows = 50u32;
        let mut links = vec![(n(0), n(1)), (n(1), n(0))];
        let mut ends = Vec::new();
        for i in 0..flows {
            let (s, d) = (n(2 + 2 * i), n(3 + 2 * i));
            links.extend([(s, n(0)), (n(0), s), (n(1), d), (d, n(1))]);
            ends.extend([s, d]);
        }
        let nodes = 2 + 2 * flows as usize;
        assert_eq!(table_shape(nodes, &links, &ends, &[]), (2, 2));
        agree(nodes, &links, &ends, &[]);
    }

    #[test]
    fn a_parking_lot_with_ties_and_static_routes_routes_as_the_dense_table() {
        // A ring a-b-c-d (both directions) with hosts on a and c: two equal paths a→c.
        let (a, b, c, d, ha, hc) = (n(0), n(1), n(2), n(3), n(4), n(5));
        let mut links = Vec::new();
        for (x, y) in [(a, b), (b, c), (c, d), (d, a), (ha, a), (hc, c)] {
            links.extend([(x, y), (y, x)]);
        }
        agree(6, &links, &[ha, hc], &[]);
        // A static route at a towards hc via d (link a→d is index 7), and one towards c.
        agree(6, &links, &[ha, hc], &[(a, hc, LinkId(7))]);
        agree(6, &links, &[ha, hc, c], &[(a, c, LinkId(7))]);
    }
}
