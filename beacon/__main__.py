from beacon.cli import main

main()
