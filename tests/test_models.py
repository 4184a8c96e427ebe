"""The analytic models against values computed by hand and the papers' special cases."""

from __future__ import annotations

import math

import numpy as np
import pytest
from aimdlab.models import gaimd, tcp


def test_gaimd_one_half_reduces_to_padhye_term_by_term():
    p, rtt, t0, b = 0.02, 0.1, 0.4, 1
    td = rtt * math.sqrt(2 * b * p / 3)
    q = min(1.0, 3 * math.sqrt(3 * b * p / 8))
    to = t0 * q * p * (1 + 32 * p * p)
    assert gaimd.td_term(1.0, 0.5, p, rtt, b) == pytest.approx(td, rel=1e-12)
    assert gaimd.to_term(1.0, 0.5, p, t0, b) == pytest.approx(to, rel=1e-12)
    assert tcp.padhye_rate(p, rtt, t0, b) == pytest.approx(1 / (td + to), rel=1e-12)


def test_hand_computed_gaimd_rate():
    # α = 0.31, β = 7/8, p = 1 %, RTT = 100 ms, T0 = 400 ms, b = 1:
    # TD = 0.1·sqrt(0.0025/0.58125) = 0.0065583; Q = 3·sqrt(0.00234375/0.62) = 0.184452;
    # TO = 0.4·0.184452·0.01·1.0032 = 0.00074017; T = 1/0.0072985 = 137.02 packets/s.
    assert gaimd.sending_rate(0.31, 0.875, 0.01, 0.1, 0.4) == pytest.approx(137.02, rel=1e-3)


def test_tcp_friendly_curves():
    assert gaimd.tcp_friendly_alpha_td(0.5) == 1.0 and gaimd.tcp_friendly_alpha_to(0.5) == 1.0
    assert gaimd.tcp_friendly_alpha_to(0.875) == pytest.approx(0.3125)  # the paper's 0.31
    assert gaimd.tcp_friendly_alpha_td(0.875) == pytest.approx(0.2)
    # On each curve the matched term is equal to TCP's for every p.
    p = np.logspace(-4, -0.3, 50)
    a_td, a_to = gaimd.tcp_friendly_alpha_td(0.75), gaimd.tcp_friendly_alpha_to(0.75)
    assert np.allclose(gaimd.td_term(a_td, 0.75, p, 0.1), gaimd.td_term(1, 0.5, p, 0.1))
    assert np.allclose(gaimd.to_term(a_to, 0.75, p, 0.4), gaimd.to_term(1, 0.5, p, 0.4))


def test_normalized_rate_is_one_for_tcp_and_rises_with_alpha():
    p = np.array([0.001, 0.01, 0.1])
    assert np.allclose(gaimd.normalized_rate(1.0, 0.5, p), 1.0)
    assert np.all(gaimd.normalized_rate(0.5, 0.875, p) > gaimd.normalized_rate(0.31, 0.875, p))


def test_mathis_and_tfrc_by_hand():
    # 1000-byte segments, 100 ms, p = 1 %: 8000/0.1·1.2247/0.1 = 979,796 bit/s.
    assert tcp.mathis_rate_bps(1000, 0.1, 0.01) == pytest.approx(979_796, rel=1e-5)
    # TFRC, s = 1000 B, R = 100 ms, p = 1 %, t_RTO = 400 ms:
    # 0.1·sqrt(0.02/3) + 0.4·3·sqrt(0.00375)·0.01·1.0032 = 0.0081650 + 0.00073719 → 898,663 bit/s.
    assert tcp.tfrc_rate_bps(1000, 0.1, 0.01) == pytest.approx(898_663, rel=1e-4)


def test_error_integral_has_a_bottom_between_the_td_and_to_curves():
    # Fig. 9: E_β(α) has a well-defined minimum; for β = 7/8, T0 = 4 RTT it lies between the
    # TD (0.2) and TO (0.3125) curves and rises with the weight threshold at first.
    a10 = gaimd.tcp_friendly_alpha_error_min(0.875, 0.1)
    a30 = gaimd.tcp_friendly_alpha_error_min(0.875, 0.3)
    assert 0.2 < a10 < a30 < 0.3125
    errs = [gaimd.error_integral(a, 0.875, 0.3) for a in (0.1, a30, 0.6)]
    assert errs[1] < errs[0] and errs[1] < errs[2]


from aimdlab.models import chiu_jain, mr_aimd  # noqa: E402


def test_chiu_jain_aimd_converges_to_fair_and_efficient_while_mimd_keeps_its_unfairness():
    a = chiu_jain.simulate([1.0, 30.0], 50.0, chiu_jain.aimd(1.0, 0.5), 400)
    assert a["fairness"][-50:].min() > 0.99
    assert 0.6 < a["efficiency"][-50:].mean() < 1.05
    m = chiu_jain.simulate([1.0, 30.0], 50.0, chiu_jain.mimd(1.1, 0.5), 400)
    assert abs(m["fairness"][-1] - m["fairness"][0]) < 1e-9  # ratios never change under MIMD


def test_new_aimd_two_flow_model_follows_eq_1_to_4_term_by_term():
    x1, x2, w = 4.0, 12.0, 40.0
    r = chiu_jain.new_aimd_pseudocode(x1, x2, w, 60)
    ends = np.nonzero(r["congested"])[0]
    t_at = r["t"][ends]
    # At the end of cycle m the total is x1/2^(m-1) + x2/2^(m-1) + 2(k1 + ... + km) (eq. 1-4):
    for m, (step, t) in enumerate(zip(ends[:4], t_at[:4]), start=1):
        expected = (x1 + x2) / 2 ** (m - 1) + 2 * t
        assert r["total"][step] == pytest.approx(expected)
        assert r["total"][step] >= w
    # Cycle 1 lasts k1 = (W - x1 - x2)/2 = 12 RTTs of increase.
    assert t_at[0] == 12


def test_new_aimd_cycle_analysis():
    c = chiu_jain.new_aimd_cycles(4.0, 12.0, 40.0, 4)
    k1 = (40 - 16) / 2
    k2 = (40 - 2 * k1) / 4
    assert list(c["k"]) == pytest.approx([k1, k2, k2 / 2, k2 / 4])
    assert c["packets"][0] == pytest.approx((1 + k1) * (40 - k1))


def test_mr_aimd_exploitation_model():
    # a' = 0.5 from a = 1, W_init = 20: eq. (3) a = 1.5, 2.5, 4.0 → W = 21.5, 24, 28.
    assert list(mr_aimd.mr_aimd_window(3, 0.5)) == pytest.approx([21.5, 24.0, 28.0])
    assert list(mr_aimd.mr_aimd_window(3, 0.5, rule="per_rtt")) == pytest.approx([21.5, 23.5, 26.0])
    assert list(mr_aimd.tcp_window(3)) == [21.0, 22.0, 23.0]
    # Closed form of eq. (3)-(4): W_n = W_init + n·a0 + a'·n(n+1)(n+2)/6; with a' = 0.005 after
    # 10 RTTs that is 31.1 against TCP's 30.
    n = np.arange(1, 11)
    assert mr_aimd.mr_aimd_window(10, 0.005) == pytest.approx(20 + n + 0.005 * n * (n + 1) * (n + 2) / 6)
    assert mr_aimd.mr_aimd_window(10, 0.005)[-1] == pytest.approx(31.1)


def test_gaimd_full_form_window_solves_the_renewal_equation_and_is_padhye_for_tcp():
    # Appendix eq. (22)-(23) with E[X] = b(1 - β)E[W]/α (eq. 21) is a quadratic in E[W];
    # its positive root must be eq. (24).
    for alpha, beta, p, b in [(0.31, 0.875, 0.02, 1), (1.0, 0.5, 0.01, 2), (0.5, 0.75, 0.2, 1)]:
        k = b * (1 - beta) / alpha  # E[X] = k·E[W]
        # (1-p)/p + W = (k W / 2)(βW + W - 1) + W/2  ->  (k(1+β)/2) W² - (k/2 + 1/2) W - (1-p)/p = 0
        roots = np.roots([k * (1 + beta) / 2, -(k / 2 + 0.5), -(1 - p) / p])
        assert gaimd.expected_window(alpha, beta, p, b) == pytest.approx(max(roots.real), rel=1e-12)
    # α = 1, β = 1/2 gives Padhye et al.'s E[W] = (2+b)/(3b) + sqrt(8(1-p)/(3bp) + ((2+b)/(3b))²):
    # at p = 0.01, b = 1 that is 1 + sqrt(264 + 1) = 17.2788.
    assert gaimd.expected_window(1.0, 0.5, 0.01) == pytest.approx(1 + math.sqrt(265), rel=1e-12)


def test_gaimd_timeout_probability_eq_45():
    assert gaimd.timeout_probability(3, 0.1) == 1.0  # w <= 3: always a timeout
    assert gaimd.timeout_probability(10, 1e-7) == pytest.approx(0.3, rel=1e-4)  # eq. (46): 3/w as p -> 0
    # By hand at w = 5, p = 0.1: (1 - .729)(1 + .729(1 - .81)) / (1 - .59049) = 0.271·1.13851/0.40951
    assert gaimd.timeout_probability(5, 0.1) == pytest.approx(0.271 * 1.13851 / 0.40951, rel=1e-12)


def test_gaimd_full_form_approaches_eq_2_at_low_loss_and_stays_close_at_moderate_loss():
    for alpha, beta in [(1.0, 0.5), (0.31, 0.875), (0.58, 0.75)]:
        full = gaimd.sending_rate_full(alpha, beta, 1e-5, 0.1, 0.4)
        approx = gaimd.sending_rate(alpha, beta, 1e-5, 0.1, 0.4)
        assert full == pytest.approx(approx, rel=0.02)
        # eq. (2) drops o(1/sqrt(p)) terms; at 5 % loss the two still agree within 25 %
        assert gaimd.sending_rate_full(alpha, beta, 0.05, 0.1, 0.4) == pytest.approx(
            gaimd.sending_rate(alpha, beta, 0.05, 0.1, 0.4), rel=0.25)


def test_model_figures_draw_the_papers_curves():
    from aimdlab.models import figures

    ax = figures.gaimd_rate_ratios(beta=0.875).axes[0]
    lines = {ln.get_label().split(":")[0]: ln for ln in ax.get_lines()}
    # Fig. 11: with the TO α a GAIMD flow gets about 20-25 % more than TCP at low loss, the
    # TD α about the same; both approach 1 at very high loss.
    assert lines["TO, eq. (7)"].get_ydata()[0] == pytest.approx(1.25, abs=0.01)
    assert lines["TD, eq. (6)"].get_ydata()[0] == pytest.approx(1.0, abs=0.01)
    assert abs(lines["TO, eq. (7)"].get_ydata()[-1] - 1) < 0.02
    # Fig. 7: MR-AIMD (eq. 3) doubles W_init = 20 within 6 RTTs; TCP needs 20.
    ax = figures.mr_aimd_exploitation(n=20).axes[0]
    mr = next(ln for ln in ax.get_lines() if ln.get_label().startswith("MR-AIMD a' = 0.5, eq"))
    tcp_line = next(ln for ln in ax.get_lines() if ln.get_label().startswith("TCP"))
    assert mr.get_ydata()[6] >= 40 > mr.get_ydata()[3]
    assert tcp_line.get_ydata()[20] == 40
    # Chiu-Jain: AIMD ends near the fairness line, MIMD does not move toward it.
    ax = figures.chiu_jain_phase(steps=200).axes[0]
    end = {ln.get_label(): (ln.get_xdata()[-1], ln.get_ydata()[-1]) for ln in ax.get_lines()}
    x1, x2 = end["AIMD (1, 1/2)"]
    assert abs(x1 - x2) < 0.05 * (x1 + x2)
    x1, x2 = end["MIMD (1.1, 1/2)"]
    assert x2 / x1 == pytest.approx(6.0, rel=1e-6)
    figures.tcp_friendly_curves(betas=[0.25, 0.75])
    figures.gaimd_error_integral(thresholds=(0.1,))


def test_a_gaimd_user_beside_a_tcp_user_crosses_the_equal_window_line_then_keeps_more():
    # gaimd.txt §3.1, Fig. 12: GAIMD(0.31, 0.875) and TCP told the same synchronous feedback.
    # Their windows never settle on the equal-window line; from a start where TCP's is the
    # larger the trace crosses it, and GAIMD's window oscillates less. In the steady cycle
    # both climb for T steps and then cut once: peak_i = α_i T / (1 − β_i), so GAIMD's mean
    # window over TCP's is (0.31 / 0.125 · (1 + 0.875) / 2) / (1 / 0.5 · (1 + 0.5) / 2) =
    # 1.55, and GAIMD stays above the line — not the "about the same bandwidth" the paper
    # reads from its trace.
    r = chiu_jain.simulate([5.0, 40.0], 100.0, [chiu_jain.gaimd(0.31, 0.875), chiu_jain.aimd(1.0, 0.5)], 20000)
    x = r["x"]
    assert x[0, 0] < x[0, 1] and (x[:2000, 0] > x[:2000, 1]).any()  # it crosses
    g, t = x[10000:, 0], x[10000:, 1]
    assert (g > t).all()
    assert g.mean() / t.mean() == pytest.approx(1.55, rel=0.01)
    assert g.std() / g.mean() < 0.5 * t.std() / t.mean()  # a smaller oscillation range
    with pytest.raises(ValueError, match="rule: expected one"):
        chiu_jain.simulate([1.0, 2.0, 3.0], 10.0, [chiu_jain.aimd(), chiu_jain.aimd()], 5)


def test_highspeeds_response_function_is_rfc_3649s_table_3():
    from aimdlab.models.response import highspeed_window

    # RFC 3649 §5, Table 3: p = 1e-2, 1e-4 ... 1e-7 (1e-3 is Low_Window, where the two forms
    # meet: 0.12/p^0.835 = 38.4 and Reno's 1.2/√p = 37.9; the table says 38).
    table = {1e-2: 12, 1e-4: 263, 1e-5: 1795, 1e-6: 12279, 1e-7: 83981}
    got = highspeed_window(np.array(list(table)))
    assert np.allclose(got, list(table.values()), rtol=0.005), got
    assert 37.9 < highspeed_window(1e-3) < 38.4


def test_scalables_response_function_is_proportional_to_one_over_p_above_its_legacy_window():
    from aimdlab.models.response import reno_window, scalable_window

    # Kelly's a = 0.01, b = 0.125: 0.0749/p packets, ten times the window for a tenth of the loss.
    assert scalable_window(1e-5) == pytest.approx(0.01 / (1e-5 * np.log(8 / 7)))
    assert scalable_window(1e-6) / scalable_window(1e-5) == pytest.approx(10.0)
    # Below its legacy window (100 packets) it grows as Reno but still keeps 7/8 at a loss:
    # AIMD(1, 7/8), √5 times Reno's window.
    assert scalable_window(1e-3) == pytest.approx(np.sqrt(5.0) * reno_window(1e-3))


def test_htcps_cycle_model_is_aimd_while_losses_come_within_delta_l():
    """Below Δ_L = 1 s between losses α = 1: H-TCP is AIMD(2(1 − β), β), whose mean window is
    √(α(1 + β)/(2(1 − β)p)) — Reno's at β = 0.5 (cycles of 0.06 s at p = 0.01, RTT 10 ms)."""
    from aimdlab.models.response import htcp_window, reno_window, veno_window

    assert htcp_window(0.01, 0.01, beta=0.5) == pytest.approx(float(reno_window(0.01)), rel=0.01)
    assert htcp_window(0.01, 0.01, beta=0.8) == pytest.approx(np.sqrt(0.4 * 1.8 / (0.4 * 0.01)), rel=0.01)
    # Beyond Δ_L α grows with the time between losses: more than AIMD's window at low loss.
    assert htcp_window(1e-5, 0.1) > 2 * np.sqrt(1.8 / 1e-5)
    # Veno on an empty path keeps 4/5: √3 times Reno's window.
    assert veno_window(1e-4) / reno_window(1e-4) == pytest.approx(np.sqrt(3.0))


def test_bics_cycle_model_is_reno_below_its_low_window_and_additive_far_above():
    """BIC at or below 14 packets is Reno (AIMD(1, ½)); far above, where S_max = 16 a round
    dominates the climb from 0.8·W, the window approaches AIMD(16, 0.8)'s from below."""
    from aimdlab.models.response import bic_window, reno_window

    assert bic_window(0.05) == pytest.approx(float(reno_window(0.05)), rel=0.05)
    additive = np.sqrt(16 * 1.8 / (2 * 0.2 * 1e-7))
    assert 0.8 * additive < bic_window(1e-7) < 1.05 * additive
