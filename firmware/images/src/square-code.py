def run():
    setpc('red')
    for i in range(4):
        move_forward()
        move_forward()
        turn_right()
