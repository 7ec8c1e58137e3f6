def main_c():
    raise SystemExit("not yet")

main_cxx = main_c
