import sys
sys.path.insert(0, "/work/main/tests")
from test_report_page import *  # noqa

def test_show(report, page):
    for frag in ("#table=heihachi,kanbei,daisuke,kikuchiyo&level=easy", "#table=heihachi,kanbei,daisuke,kikuchiyo&level=normal", "#table=kanbei,kikuchiyo,heihachi,daisuke&level=easy"):
        harness.load(page, report / "report.html", 1400, fragment=frag)
        print("\n----", frag, "\n", page.inner_text("#your-answer"))
