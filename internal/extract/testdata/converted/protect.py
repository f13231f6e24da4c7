"""Saves a document with a password through LibreOffice's UNO API.

usage: protect.py PROFILE_DIR SOURCE TARGET FILTER
(--convert-to cannot set a password; storeToURL with "Password" can.)
"""
import os
import subprocess
import sys
import time

import uno
from com.sun.star.beans import PropertyValue


def prop(name, value):
    p = PropertyValue()
    p.Name, p.Value = name, value
    return p


def main():
    profile, source, target, filt = sys.argv[1:5]
    pipe = "markwell_fixture_%d" % os.getpid()
    office = subprocess.Popen(["soffice", "--headless", "--norestore", "--nologo",
                               "-env:UserInstallation=file://" + profile,
                               "--accept=pipe,name=%s;urp;" % pipe])
    try:
        ctx = uno.getComponentContext()
        resolver = ctx.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", ctx)
        for _ in range(120):
            try:
                remote = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
                break
            except Exception:
                time.sleep(0.5)
        else:
            sys.exit("LibreOffice did not start")
        desktop = remote.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", remote)
        doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(os.path.abspath(source)), "_blank", 0,
                                           (prop("Hidden", True),))
        doc.storeToURL(uno.systemPathToFileUrl(os.path.abspath(target)),
                       (prop("FilterName", filt), prop("Password", "secret")))
        doc.close(True)
        try:
            desktop.terminate()
        except Exception:
            pass
    finally:
        try:
            office.wait(timeout=30)
        except subprocess.TimeoutExpired:
            office.kill()


if __name__ == "__main__":
    main()
