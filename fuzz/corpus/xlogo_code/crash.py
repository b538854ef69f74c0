def run():
    for i in range(2):
        move_forward()
    turn_right()
    for i in range(2):
        move_forward()
